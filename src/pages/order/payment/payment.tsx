import { buildUrl, requireLogin } from '@/core/navigation';
import { NAMED_TARGETS } from '@/core/routes';
import { useRouteRecord } from '@/core/use-route-record';
import { type Order, fetchOrder } from '@/features/order/api';
import { failureMessage } from '@/features/order/api-error';
import { type PaymentMethods, fetchPaymentMethods } from '@/features/payment/api';
import { paymentPlatform } from '@/features/payment/method-views';
import { PAYMENT_METHODS, methodsByPlatform } from '@/features/payment/methods';
import { PAYMENT_PAGE } from '@/features/payment/routes';
import { currentToken } from '@/state/customer';
import { Money } from '@/ui/shop/Money';
import { type LoadState, StateView } from '@/ui/shop/StateView';
import { Text, View } from '@tarojs/components';
import Taro, { useRouter } from '@tarojs/taro';
import { useCallback, useEffect, useState } from 'react';
import { PAYMENT_MESSAGES } from '../../../../types/api';
import '@/ui/shop/shop.css';
import './payment.css';

function openOrder(order: Order): void {
  void Taro.redirectTo({ url: buildUrl(NAMED_TARGETS.orderDetail, { order_id: String(order.order_id) }) });
}

export default function PaymentPage() {
  useRouteRecord();
  const orderId = Number(useRouter().params.order_id);
  const [order, setOrder] = useState<Order | null>(null);
  const [offers, setOffers] = useState<PaymentMethods>({ methods: [], test_mode: false });
  const [state, setState] = useState<LoadState>('loading');
  const [loadError, setLoadError] = useState('');

  useEffect(() => {
    requireLogin({ path: PAYMENT_PAGE, query: { order_id: String(orderId) } });
  }, [orderId]);

  const load = useCallback(() => {
    setState('loading');
    Promise.all([fetchOrder(orderId), fetchPaymentMethods()]).then(
      ([found, methods]) => {
        if (!found) {
          setLoadError('This order does not exist or was deleted');
          setState('error');
          return;
        }
        setOrder(found);
        setOffers(methods);
        setState('ready');
      },
      (reason: unknown) => {
        setLoadError(failureMessage(reason));
        setState('error');
      },
    );
  }, [orderId]);

  useEffect(() => {
    if (currentToken()) load();
  }, [load]);

  if (state !== 'ready' || !order) {
    return (
      <View className="shop-page">
        <StateView state={state} error={loadError} onRetry={load} />
      </View>
    );
  }

  if (order.status !== 'created') {
    return (
      <View className="shop-page">
        <View className="shop-card payment-done">
          <Text className="shop-card__title">Order {order.order_sn}</Text>
          <Text className="shop-muted">This order needs no payment: it is {order.status}.</Text>
          <View className="shop-button payment-done__action" onClick={() => openOrder(order)}>
            <Text>See the order</Text>
          </View>
        </View>
      </View>
    );
  }

  // What the server has configured and this platform can host, in the order of the shop's list.
  const offered = PAYMENT_METHODS.filter((method) => method.platforms.includes(paymentPlatform.name)).flatMap(
    (method) => {
      const offer = offers.methods.find((candidate) => candidate.id === method.id);
      const MethodView = paymentPlatform.views[method.id];
      return offer && MethodView ? [{ method, offer, MethodView }] : [];
    },
  );

  return (
    <View className="shop-page payment">
      <View className="shop-card payment__summary">
        <Text className="shop-muted">Order {order.order_sn}</Text>
        <Text className="payment__amount-label">Amount to pay</Text>
        <Money value={order.total} className="payment__amount" />
        {offers.test_mode && <Text className="payment__test-mode">{PAYMENT_MESSAGES.testMode}</Text>}
      </View>

      {offered.map(({ method, offer, MethodView }) => (
        <View key={method.id} className="shop-card">
          <Text className="shop-card__title">{method.label}</Text>
          <MethodView order={order} offer={offer} onPaid={openOrder} />
        </View>
      ))}
      {offered.length === 0 && (
        <View className="shop-card">
          <Text className="shop-muted payment__none">No way to pay is available here for now.</Text>
        </View>
      )}

      <View className="shop-card payment__platforms">
        <Text className="shop-card__title">Ways to pay</Text>
        {methodsByPlatform().map((line) => (
          <Text key={line.platform} className="shop-muted payment__platform">
            {`${line.platform}: ${line.methods}`}
          </Text>
        ))}
      </View>
    </View>
  );
}
