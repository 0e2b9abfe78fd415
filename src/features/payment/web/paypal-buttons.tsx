import { failureMessage } from '@/features/order/api-error';
import type { PayPalNamespace } from '@paypal/paypal-js';
import { Text, View } from '@tarojs/components';
import { useEffect, useRef, useState } from 'react';
import { PAYMENT_MESSAGES } from '../../../../types/api';
import { capturePaypalOrder, createPaypalOrder } from '../api';
import type { MethodViewProps } from '../method-views';
import { serverMessage } from './messages';

/** Answers after which the buyer chooses again at PayPal (another funding source, or a verification). */
const RESTART = new Set<string>([PAYMENT_MESSAGES.paypalDeclined, PAYMENT_MESSAGES.paypalVerify]);

/**
 * PayPal through its JS SDK's buttons (loaded by @paypal/paypal-js from the URL the server names): the server
 * creates the PayPal order for the order's total and captures it once the buyer approved in PayPal's window.
 */
export function PaypalButtons({ order, offer, onPaid }: MethodViewProps) {
  const host = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'unavailable'>('loading');
  const [message, setMessage] = useState('');

  useEffect(() => {
    let cancelled = false;
    let close = () => {};
    (async () => {
      const { loadScript } = await import('@paypal/paypal-js');
      const paypal: PayPalNamespace | null = await loadScript({
        clientId: offer.client_id,
        sdkBaseUrl: offer.sdk_url,
        currency: 'USD',
        intent: 'capture',
        components: 'buttons',
      });
      if (cancelled || !paypal?.Buttons || !host.current) return;
      const buttons = paypal.Buttons({
        style: { layout: 'horizontal', label: 'pay', tagline: false },
        createOrder: async () => {
          setMessage('');
          return (await createPaypalOrder(order.order_id)).paypal_order_id;
        },
        onApprove: async (data, actions) => {
          try {
            onPaid(await capturePaypalOrder(order.order_id, data.orderID));
          } catch (reason) {
            setMessage(failureMessage(reason));
            if (RESTART.has(serverMessage(reason))) await actions.restart();
          }
        },
        onCancel: () => setMessage('You left PayPal before approving: nothing was paid'),
        onError: (error) => setMessage(failureMessage(error)),
      });
      close = () => void buttons.close();
      await buttons.render(host.current);
      if (!cancelled) setState('ready');
    })().catch((reason: unknown) => {
      if (cancelled) return;
      setMessage(failureMessage(reason));
      setState('unavailable');
    });
    return () => {
      cancelled = true;
      close();
    };
  }, [order.order_id, offer.client_id, offer.sdk_url, onPaid]);

  return (
    <View className="payment__method payment__paypal">
      <div ref={host} className="payment__sdk" />
      {state === 'loading' && <Text className="shop-muted">Loading PayPal…</Text>}
      {message && <Text className="shop-alert payment__failure">{message}</Text>}
    </View>
  );
}
