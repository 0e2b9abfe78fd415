import { buildUrl, goTo, requireLogin } from '@/core/navigation';
import { imageUrl } from '@/core/request';
import { NAMED_TARGETS } from '@/core/routes';
import { useWaiting } from '@/core/use-network';
import { useRouteRecord } from '@/core/use-route-record';
import { lensSummary } from '@/features/cart/describe';
import { submitOrder } from '@/features/order/api';
import { fieldError } from '@/features/order/api-error';
import { checkoutClientKey, finishCheckout, updateCheckout } from '@/features/order/checkout';
import { couponLabel } from '@/features/order/coupons';
import { usePageLoad } from '@/features/order/use-page-load';
import { usePlaceOrder } from '@/features/order/use-place-order';
import { PAYMENT_PAGE } from '@/features/payment/routes';
import { Money, money } from '@/ui/shop/Money';
import { EmptyView, StateView } from '@/ui/shop/StateView';
import { Image, Input, Text, View } from '@tarojs/components';
import Taro from '@tarojs/taro';
import { useEffect, useState } from 'react';
import '@/ui/shop/shop.css';
import './place-order.css';

type Section = 'address' | 'shipping' | 'coupon' | 'order';

const SECTION_OF_FIELD: Record<string, Section> = {
  address_id: 'address',
  shipping_method_id: 'shipping',
  coupon_code: 'coupon',
};

export default function PlaceOrderPage() {
  useRouteRecord();
  const order = usePlaceOrder();
  const {
    checkout,
    cart,
    address,
    recommended,
    couponCheck,
    saving,
    shippingBase,
    method,
    total,
    state,
    loadError,
    load,
  } = order;
  const [typedCode, setTypedCode] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Section, string>>>({});
  const [submitting, setSubmitting] = useWaiting();

  useEffect(() => {
    requireLogin({ path: NAMED_TARGETS.placeOrder, query: {} });
  }, []);

  usePageLoad(load);

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
          hint="Add glasses to your cart to place an order."
          action="Go to cart"
          onAction={() => void goTo('cart')}
        />
      </View>
    );
  }

  const applyCode = (code: string) => {
    updateCheckout({ couponCode: code.trim().toUpperCase() });
    setErrors({ ...errors, coupon: undefined });
  };

  const submit = () => {
    if (submitting) return;
    const found: Partial<Record<Section, string>> = {};
    if (!address) found.address = 'Add a delivery address';
    if (!method) found.shipping = 'Choose a shipping method';
    if (couponCheck && !couponCheck.ok) found.coupon = couponCheck.message;
    setErrors(found);
    if (!address || !method || Object.keys(found).length > 0) return;
    setSubmitting(true);
    submitOrder({
      client_key: checkoutClientKey(),
      address_id: address.address_id,
      shipping_method_id: method.shipping_method_id,
      coupon_code: couponCheck?.ok ? couponCheck.coupon.code : undefined,
    }).then(
      (placed) => {
        finishCheckout();
        setSubmitting(false);
        void Taro.redirectTo({ url: buildUrl(PAYMENT_PAGE, { order_id: String(placed.order_id) }) });
      },
      (reason: unknown) => {
        setSubmitting(false);
        const { field, message } = fieldError(reason);
        const sentence = message.charAt(0).toUpperCase() + message.slice(1);
        // A refused line is named, so the shopper knows which one to fix or remove in the cart.
        const lineAt = /^lines\.(\d+)/.exec(field);
        const line = lineAt ? cart?.lines[Number(lineAt[1])] : undefined;
        const text = line ? `Line ${Number(lineAt?.[1]) + 1}, ${line.goods_name}: ${sentence}` : sentence;
        setErrors({ [SECTION_OF_FIELD[field] ?? 'order']: text });
      },
    );
  };

  return (
    <View className="shop-page place-order">
      {errors.order && <Text className="shop-alert">{errors.order}</Text>}

      <View className="shop-card place-order__address" onClick={() => void goTo('addressList', { select: '1' })}>
        <Text className="shop-card__title">Deliver to</Text>
        {address ? (
          <View className="place-order__address-body">
            <Text className="place-order__strong">
              {address.first_name} {address.last_name} · {address.phone}
            </Text>
            <Text className="shop-muted">
              {[address.street, address.street2, address.zip, address.city, address.country_code]
                .filter(Boolean)
                .join(', ')}
            </Text>
          </View>
        ) : (
          <Text className="place-order__link">Add a delivery address</Text>
        )}
        <Text className="place-order__change">Change ›</Text>
        {errors.address && <Text className="shop-field__error">{errors.address}</Text>}
      </View>

      <View className="shop-card">
        <Text className="shop-card__title">Items</Text>
        {cart.lines.map((line, index) => (
          <View className="place-order__line" key={`${line.goods_id}-${line.color_id}-${index}`}>
            <Image className="place-order__thumb" src={imageUrl(line.goods_img)} mode="aspectFit" />
            <View className="place-order__line-body">
              <Text className="place-order__strong">{line.goods_name}</Text>
              <Text className="shop-muted">
                {line.color_name} · {lensSummary(line.lens_detail).join(', ')}
              </Text>
              <Text className="shop-muted">× {line.quantity}</Text>
            </View>
            <Money value={line.line_total} />
          </View>
        ))}
      </View>

      <View
        className="shop-card place-order__shipping"
        onClick={() => void goTo('shipment', { subtotal: String(shippingBase), country: address?.country_code ?? '' })}
      >
        <Text className="shop-card__title">Shipping</Text>
        {method ? (
          <View className="shop-row">
            <Text>
              {method.name} · {method.min_days}–{method.max_days} days
            </Text>
            <Text className="shop-money">{method.price === 0 ? 'Free' : money(method.price)}</Text>
          </View>
        ) : (
          <Text className="place-order__link">Choose a shipping method</Text>
        )}
        <Text className="place-order__change">Change ›</Text>
        {errors.shipping && <Text className="shop-field__error">{errors.shipping}</Text>}
      </View>

      <View className="shop-card">
        <Text className="shop-card__title">Coupon</Text>
        {recommended.length > 0 && (
          <View className="place-order__coupons">
            {recommended.map((coupon) => {
              const chosen = couponCheck?.ok && couponCheck.coupon.code === coupon.code;
              return (
                <View
                  key={coupon.coupon_id}
                  className={`place-order__coupon ${chosen ? 'place-order__coupon--chosen' : ''}`}
                  onClick={() => applyCode(chosen ? '' : coupon.code)}
                >
                  <Text className="place-order__coupon-saving">-{money(coupon.saving)}</Text>
                  <Text className="place-order__coupon-code">{coupon.code}</Text>
                  <Text className="shop-muted">{coupon.title}</Text>
                  <Text className="place-order__coupon-kind">{chosen ? 'Applied' : couponLabel(coupon)}</Text>
                </View>
              );
            })}
          </View>
        )}
        <View className="place-order__code">
          <Input
            className="shop-field__input place-order__code-input"
            name="coupon_code"
            placeholder="Coupon code"
            value={typedCode}
            onInput={(event) => setTypedCode(event.detail.value)}
          />
          <View
            className="shop-button shop-button--ghost shop-button--small place-order__apply"
            onClick={() => {
              if (typedCode.trim()) applyCode(typedCode);
            }}
          >
            <Text>Apply</Text>
          </View>
        </View>
        {checkout.couponCode && couponCheck && !couponCheck.ok && (
          <View className="place-order__coupon-problem">
            <Text className="shop-field__error">
              {checkout.couponCode}: {couponCheck.message}
            </Text>
            <Text className="place-order__link" onClick={() => applyCode('')}>
              Remove
            </Text>
          </View>
        )}
        {errors.coupon && <Text className="shop-field__error">{errors.coupon}</Text>}
      </View>

      <View className="shop-card">
        <View className="shop-row">
          <Text className="shop-row__label">Subtotal</Text>
          <Money value={cart.subtotal} />
        </View>
        {saving > 0 && couponCheck?.ok && (
          <View className="shop-row">
            <Text className="shop-row__label">Coupon {couponCheck.coupon.code}</Text>
            <Money value={-saving} />
          </View>
        )}
        <View className="shop-row">
          <Text className="shop-row__label">Shipping</Text>
          <Text className="shop-money">{method ? (method.price === 0 ? 'Free' : money(method.price)) : '—'}</Text>
        </View>
        <View className="shop-row shop-row--total">
          <Text>Total</Text>
          {total !== null ? <Money value={total} /> : <Text>—</Text>}
        </View>
      </View>

      <View className="shop-footer">
        <View className="shop-footer__summary">
          <Text className="shop-muted">Total</Text>
          {total !== null && <Money value={total} className="shop-footer__total" />}
        </View>
        <View className={`shop-button ${submitting ? 'shop-button--disabled' : ''}`} onClick={submit}>
          <Text>{submitting ? 'Placing order…' : 'Place order'}</Text>
        </View>
      </View>
    </View>
  );
}
