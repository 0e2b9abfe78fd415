import { goHome, goTo, requireLogin } from '@/core/navigation';
import { imageUrl } from '@/core/request';
import { NAMED_TARGETS } from '@/core/routes';
import { useRouteRecord } from '@/core/use-route-record';
import { MAX_LINE_QUANTITY, MIN_LINE_QUANTITY } from '@/features/cart/api';
import { lensSummary } from '@/features/cart/describe';
import { useCart } from '@/features/cart/use-cart';
import { usePageLoad } from '@/features/order/use-page-load';
import { fetchPrescriptions } from '@/features/prescription/api';
import { Money } from '@/ui/shop/Money';
import { EmptyView, StateView } from '@/ui/shop/StateView';
import { Image, Text, View } from '@tarojs/components';
import { useCallback, useEffect, useState } from 'react';
import '@/ui/shop/shop.css';
import './cart.css';

export const CHECKOUT_BLOCKED = 'To check out, remove or fix these lines:';

export default function CartPage() {
  useRouteRecord();
  const { cart, state, loadError, editError, saving, load, setQuantity, remove } = useCart();
  const [prescriptionNames, setPrescriptionNames] = useState<Map<number, string>>(new Map());

  useEffect(() => {
    requireLogin({ path: NAMED_TARGETS.cart, query: {} });
  }, []);

  const loadAll = useCallback(() => {
    load();
    fetchPrescriptions().then(
      (list) => setPrescriptionNames(new Map(list.map((item) => [item.prescription_id, item.name]))),
      () => setPrescriptionNames(new Map()),
    );
  }, [load]);

  usePageLoad(loadAll);

  if (state !== 'ready' || !cart) {
    return (
      <View className="shop-page">
        <StateView state={state} error={loadError} onRetry={load} />
      </View>
    );
  }

  if (cart.lines.length === 0) {
    return (
      <View className="shop-page">
        <EmptyView
          title="Your cart is empty"
          hint="Choose a frame and its lenses, they will wait for you here."
          action="Browse glasses"
          onAction={() => void goHome()}
        />
      </View>
    );
  }

  const blocking = cart.lines
    .map((line, index) => ({ index, name: line.goods_name, available: line.available }))
    .filter((line) => !line.available);
  const unavailable = blocking.length > 0;
  const canCheckout = !unavailable && !saving;

  return (
    <View className="shop-page cart">
      {editError && <Text className="shop-alert">{editError}</Text>}
      {cart.lines.map((line, index) => (
        <View
          className={`shop-card cart-line ${line.available ? '' : 'cart-line--off'}`}
          key={`${line.goods_id}-${line.color_id}-${index}`}
        >
          <Image className="cart-line__image" src={imageUrl(line.goods_img)} mode="aspectFit" />
          <View className="cart-line__body">
            <Text className="cart-line__name">{line.goods_name}</Text>
            <Text className="cart-line__meta">Colour: {line.color_name}</Text>
            <Text className="cart-line__meta">Lenses: {lensSummary(line.lens_detail).join(', ')}</Text>
            {line.prescription_id != null && (
              <Text className="cart-line__meta">
                Prescription: {prescriptionNames.get(line.prescription_id) ?? `#${line.prescription_id}`}
              </Text>
            )}
            {!line.available && !line.problem && (
              <Text className="shop-badge shop-badge--warn">No longer available</Text>
            )}
            {line.problem && <Text className="shop-alert cart-line__problem">{line.problem}</Text>}
            <View className="cart-line__price-row">
              <Text className="shop-muted">
                Frame <Money value={line.frame_price} className="cart-line__small-money" />
                {line.lens_detail ? (
                  <Text>
                    {' '}
                    + lenses <Money value={line.lens_detail.total} className="cart-line__small-money" />
                  </Text>
                ) : null}
              </Text>
            </View>
            <View className="cart-line__actions">
              <View className="cart-qty">
                <View
                  className={`cart-qty__button ${line.quantity <= MIN_LINE_QUANTITY ? 'cart-qty__button--off' : ''}`}
                  onClick={() => setQuantity(index, line.quantity - 1)}
                >
                  <Text>−</Text>
                </View>
                <Text className="cart-qty__value">{line.quantity}</Text>
                <View
                  className={`cart-qty__button ${line.quantity >= MAX_LINE_QUANTITY ? 'cart-qty__button--off' : ''}`}
                  onClick={() => setQuantity(index, line.quantity + 1)}
                >
                  <Text>+</Text>
                </View>
              </View>
              <Money value={line.line_total} className="cart-line__total" />
            </View>
            <View className="cart-line__remove" onClick={() => remove(index)}>
              <Text>Remove</Text>
            </View>
          </View>
        </View>
      ))}
      {unavailable && (
        <View className="shop-alert">
          <Text>{CHECKOUT_BLOCKED}</Text>
          {blocking.map((line) => (
            <Text className="cart__blocking" key={line.index}>
              {`Line ${line.index + 1}: ${line.name}`}
            </Text>
          ))}
        </View>
      )}
      <View className="shop-footer">
        <View className="shop-footer__summary">
          <Text className="shop-muted">
            {cart.item_count} {cart.item_count === 1 ? 'item' : 'items'} · subtotal
          </Text>
          <Money value={cart.subtotal} className="shop-footer__total" />
        </View>
        <View
          className={`shop-button ${canCheckout ? '' : 'shop-button--disabled'}`}
          onClick={() => {
            if (canCheckout) void goTo('placeOrder');
          }}
        >
          <Text>Checkout</Text>
        </View>
      </View>
    </View>
  );
}
