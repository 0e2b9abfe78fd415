import { failureMessage } from '@/features/order/api-error';
import { Text, View } from '@tarojs/components';
import type { Dropin, Options } from 'braintree-web-drop-in';
import { useEffect, useRef, useState } from 'react';
import { braintreeCheckout, fetchBraintreeToken } from '../api';
import type { MethodViewProps } from '../method-views';
import { loadScript } from './load-script';

declare global {
  interface Window {
    braintree?: { dropin?: { create(options: Options): Promise<Dropin> } };
  }
}

/**
 * A card through Braintree's drop-in (braintree-web-drop-in, loaded from the URL the server names): the drop-in
 * tokenizes the card with Braintree and runs 3-D Secure; the server sells the order's total against the nonce.
 */
export function BraintreeDropin({ order, onPaid }: MethodViewProps) {
  const host = useRef<HTMLDivElement>(null);
  const dropin = useRef<Dropin | null>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'paying' | 'unavailable'>('loading');
  const [message, setMessage] = useState('');

  useEffect(() => {
    let cancelled = false;
    (async () => {
      const token = await fetchBraintreeToken();
      await loadScript(token.dropin_url);
      const create = window.braintree?.dropin?.create;
      if (!create || cancelled || !host.current) return;
      const instance = await create({ authorization: token.client_token, container: host.current, threeDSecure: true });
      if (cancelled) {
        void instance.teardown();
        return;
      }
      dropin.current = instance;
      setState('ready');
    })().catch((reason: unknown) => {
      if (cancelled) return;
      setMessage(failureMessage(reason));
      setState('unavailable');
    });
    return () => {
      cancelled = true;
      void dropin.current?.teardown();
      dropin.current = null;
    };
  }, []);

  const pay = async () => {
    const instance = dropin.current;
    if (!instance || state !== 'ready') return;
    setState('paying');
    setMessage('');
    try {
      const method = await instance.requestPaymentMethod({
        threeDSecure: { amount: order.total.toFixed(2) },
      } as Parameters<Dropin['requestPaymentMethod']>[0]);
      onPaid(await braintreeCheckout(order.order_id, method.nonce));
    } catch (reason) {
      instance.clearSelectedPaymentMethod();
      setMessage(failureMessage(reason));
      setState('ready');
    }
  };

  return (
    <View className="payment__method payment__braintree">
      <div ref={host} className="payment__sdk" />
      {state === 'loading' && <Text className="shop-muted">Loading Braintree…</Text>}
      {message && <Text className="shop-alert payment__failure">{message}</Text>}
      {(state === 'ready' || state === 'paying') && (
        <View className={`shop-button payment__pay ${state === 'paying' ? 'shop-button--disabled' : ''}`} onClick={pay}>
          <Text>{state === 'paying' ? 'Paying…' : 'Pay with Braintree'}</Text>
        </View>
      )}
    </View>
  );
}
