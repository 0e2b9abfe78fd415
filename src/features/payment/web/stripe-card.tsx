import { failureMessage } from '@/features/order/api-error';
import { Money } from '@/ui/shop/Money';
import type { Stripe, StripeElements } from '@stripe/stripe-js';
import { Text, View } from '@tarojs/components';
import { useEffect, useRef, useState } from 'react';
import { confirmCardPayment, startCardPayment } from '../api';
import type { MethodViewProps } from '../method-views';
import { loadScript } from './load-script';
import { untilSettled } from './messages';

/**
 * Card through Stripe's Payment Element: the card is typed into Stripe's frame and goes to Stripe from there (PCI
 * SAQ-A: it never reaches our server); Stripe.js runs 3-D Secure and any other next action; the amount is the
 * PaymentIntent's, made by the server; the order is paid when the server, asking Stripe, says so.
 */
export function StripeCard({ order, onPaid }: MethodViewProps) {
  const host = useRef<HTMLDivElement>(null);
  const session = useRef<{ stripe: Stripe; elements: StripeElements } | null>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'paying' | 'unavailable'>('loading');
  const [message, setMessage] = useState('');
  const [amount, setAmount] = useState(0);

  useEffect(() => {
    let cancelled = false;
    let destroy = () => {};
    (async () => {
      const secret = await startCardPayment(order.order_id);
      await loadScript(secret.js_url);
      const { loadStripe } = await import('@stripe/stripe-js/pure');
      const stripe = await loadStripe(secret.publishable_key);
      if (cancelled || !stripe || !host.current) return;
      const elements = stripe.elements({ clientSecret: secret.client_secret });
      const element = elements.create('payment');
      element.mount(host.current);
      destroy = () => element.destroy();
      session.current = { stripe, elements };
      setAmount(secret.amount);
      setState('ready');
    })().catch((reason: unknown) => {
      if (cancelled) return;
      setMessage(failureMessage(reason));
      setState('unavailable');
    });
    return () => {
      cancelled = true;
      destroy();
    };
  }, [order.order_id]);

  const pay = async () => {
    const current = session.current;
    if (!current || state !== 'ready') return;
    setState('paying');
    setMessage('');
    try {
      const submitted = await current.elements.submit();
      if (submitted.error) throw new Error(submitted.error.message);
      const result = await current.stripe.confirmPayment({
        elements: current.elements,
        redirect: 'if_required',
        confirmParams: { return_url: window.location.href },
      });
      if (result.error) throw new Error(result.error.message);
      onPaid(await untilSettled(() => confirmCardPayment(order.order_id)));
    } catch (reason) {
      setMessage(failureMessage(reason));
      setState('ready');
    }
  };

  return (
    <View className="payment__method payment__card">
      <div ref={host} className="payment__sdk" />
      {state === 'loading' && <Text className="shop-muted">Loading Stripe…</Text>}
      {message && <Text className="shop-alert payment__failure">{message}</Text>}
      {state !== 'unavailable' && state !== 'loading' && (
        <View className={`shop-button payment__pay ${state === 'paying' ? 'shop-button--disabled' : ''}`} onClick={pay}>
          <Text>{state === 'paying' ? 'Paying…' : 'Pay by card'}</Text>
          {state !== 'paying' && <Money value={amount} className="payment__pay-amount" />}
        </View>
      )}
    </View>
  );
}
