import { goBack } from '@/core/navigation';
import { useRouteRecord } from '@/core/use-route-record';
import { type ShippingMethod, fetchShippingMethods } from '@/features/order/api';
import { failureMessage } from '@/features/order/api-error';
import { checkoutAtom, updateCheckout } from '@/features/order/checkout';
import { money } from '@/ui/shop/Money';
import { EmptyView, type LoadState, StateView } from '@/ui/shop/StateView';
import { Text, View } from '@tarojs/components';
import { useRouter } from '@tarojs/taro';
import { useAtomValue } from 'jotai';
import { useCallback, useEffect, useState } from 'react';
import '@/ui/shop/shop.css';
import './shipment.css';

export default function ShipmentPage() {
  useRouteRecord();
  const { params } = useRouter();
  const subtotal = Number(params.subtotal) || 0;
  const country = params.country || undefined;
  const checkout = useAtomValue(checkoutAtom);
  const [methods, setMethods] = useState<ShippingMethod[]>([]);
  const [state, setState] = useState<LoadState>('loading');
  const [error, setError] = useState('');

  const load = useCallback(() => {
    setState('loading');
    fetchShippingMethods(subtotal, country).then(
      (list) => {
        setMethods(list);
        setState('ready');
      },
      (reason: unknown) => {
        setError(failureMessage(reason));
        setState('error');
      },
    );
  }, [subtotal, country]);

  useEffect(() => {
    load();
  }, [load]);

  if (state !== 'ready') {
    return (
      <View className="shop-page">
        <StateView state={state} error={error} onRetry={load} />
      </View>
    );
  }
  if (methods.length === 0) {
    return (
      <View className="shop-page">
        <EmptyView title="No shipping methods" hint="We cannot ship right now, please try again later." />
      </View>
    );
  }

  const chosenId = checkout.shippingMethodId ?? methods[0].shipping_method_id;

  return (
    <View className="shop-page">
      {methods.map((method) => {
        const chosen = method.shipping_method_id === chosenId;
        return (
          <View
            key={method.shipping_method_id}
            className={`shop-card shipment ${chosen ? 'shipment--chosen' : ''}`}
            onClick={() => {
              updateCheckout({ shippingMethodId: method.shipping_method_id });
              void goBack();
            }}
          >
            <View className={`shipment__radio ${chosen ? 'shipment__radio--on' : ''}`} />
            <View className="shipment__body">
              <Text className="shipment__name">{method.name}</Text>
              <Text className="shop-muted">{method.description}</Text>
              <Text className="shop-muted">
                Arrives in {method.min_days}–{method.max_days} days
              </Text>
              {method.free_threshold !== null && method.price > 0 && (
                <Text className="shipment__hint">Free from {money(method.free_threshold)}</Text>
              )}
            </View>
            <Text className="shipment__price">{method.price === 0 ? 'Free' : money(method.price)}</Text>
          </View>
        );
      })}
    </View>
  );
}
