import { goTo, openPage, requireLogin } from '@/core/navigation';
import { imageUrl } from '@/core/request';
import { NAMED_TARGETS } from '@/core/routes';
import { useRouteRecord } from '@/core/use-route-record';
import { lensSummary } from '@/features/cart/describe';
import { CS_PAGES } from '@/features/cs/routes';
import {
  DELETE_ORDER_QUESTION,
  type Order,
  type OrderEvent,
  STATUS_LABELS,
  STEP_LABELS,
  type Tracking,
  canDeleteOrder,
  deleteOrder,
  fetchHistory,
  fetchOrder,
  fetchTracking,
} from '@/features/order/api';
import { failureMessage } from '@/features/order/api-error';
import { statusBadgeClass } from '@/features/order/status';
import { usePageLoad } from '@/features/order/use-page-load';
import { PAYMENT_PAGE } from '@/features/payment/routes';
import { describeEye, describePd } from '@/features/prescription/api';
import { Money } from '@/ui/shop/Money';
import { type LoadState, StateView } from '@/ui/shop/StateView';
import { Image, Text, View } from '@tarojs/components';
import Taro, { useRouter } from '@tarojs/taro';
import { useCallback, useEffect, useState } from 'react';
import '@/ui/shop/shop.css';
import './order-detail.css';

function when(time: number): string {
  return new Date(time).toLocaleString();
}

function TrackingView({ order }: { order: Order }) {
  const [tracking, setTracking] = useState<Tracking | null>(null);
  const [error, setError] = useState('');

  useEffect(() => {
    if (!order.tracking_no) return;
    fetchTracking(order.order_id).then(setTracking, (reason: unknown) => setError(failureMessage(reason)));
  }, [order.order_id, order.tracking_no]);

  if (!order.tracking_no) {
    const waiting = order.status === 'paid';
    return (
      <Text className="shop-muted">
        {waiting
          ? 'We are preparing your glasses; tracking appears here once the parcel is dispatched.'
          : 'No parcel yet.'}
      </Text>
    );
  }
  if (error) return <Text className="shop-alert">{error}</Text>;
  if (!tracking) return <Text className="shop-muted">Loading tracking…</Text>;
  return (
    <View>
      <Text className="shop-muted">
        {tracking.carrier} · {tracking.tracking_no}
      </Text>
      {tracking.events.length === 0 && <Text className="shop-muted">The carrier has no events yet.</Text>}
      <View className="track">
        {tracking.events.map((event, index) => (
          <View className={`track__event ${index === 0 ? 'track__event--latest' : ''}`} key={`${event.time}-${index}`}>
            <View className="track__dot" />
            <View className="track__body">
              <Text className="track__description">{event.description}</Text>
              <Text className="shop-muted">
                {event.location} · {when(event.time)}
              </Text>
            </View>
          </View>
        ))}
      </View>
    </View>
  );
}

/** The order's steps as the shopper sees them: placed, paid, shipped, delivered, refunds. */
function HistoryView({ order }: { order: Order }) {
  const [steps, setSteps] = useState<OrderEvent[]>([]);
  useEffect(() => {
    fetchHistory(order.order_id).then(setSteps, () => setSteps([]));
  }, [order.order_id]);
  return (
    <View className="track-history">
      {[...steps].reverse().map((step, index) => (
        <View
          className={`track__event ${index === 0 ? 'track__event--latest' : ''}`}
          key={`${step.created_at}-${index}`}
        >
          <View className="track__dot" />
          <View className="track__body">
            <Text className="track__description">
              {STEP_LABELS[step.kind]}
              {step.amount !== null ? ` ${step.amount.toFixed(2)}` : ''}
            </Text>
            <Text className="shop-muted">{when(step.created_at)}</Text>
          </View>
        </View>
      ))}
      <View className="track__event">
        <View className="track__dot" />
        <View className="track__body">
          <Text className="track__description">Order placed</Text>
          <Text className="shop-muted">{when(order.created_at)}</Text>
        </View>
      </View>
    </View>
  );
}

export default function OrderDetailPage() {
  useRouteRecord();
  const orderId = Number(useRouter().params.order_id);
  const [order, setOrder] = useState<Order | null>(null);
  const [state, setState] = useState<LoadState>('loading');
  const [error, setError] = useState('');
  const [actionError, setActionError] = useState('');

  useEffect(() => {
    requireLogin({ path: NAMED_TARGETS.orderDetail, query: { order_id: String(orderId) } });
  }, [orderId]);

  const load = useCallback(() => {
    fetchOrder(orderId).then(
      (found) => {
        if (!found) {
          setError('This order does not exist or was deleted');
          setState('error');
          return;
        }
        setOrder(found);
        setState('ready');
      },
      (reason: unknown) => {
        setError(failureMessage(reason));
        setState('error');
      },
    );
  }, [orderId]);

  usePageLoad(load);

  const remove = () => {
    if (!order) return;
    Taro.showModal({ title: 'Delete order', content: DELETE_ORDER_QUESTION }).then((answer) => {
      if (!answer.confirm) return;
      setActionError('');
      deleteOrder(order.order_id).then(
        () => void Taro.redirectTo({ url: NAMED_TARGETS.orderList }),
        (reason: unknown) => setActionError(failureMessage(reason)),
      );
    });
  };

  if (state !== 'ready' || !order) {
    return (
      <View className="shop-page">
        <StateView state={state} error={error} onRetry={load} />
      </View>
    );
  }

  const { address } = order;
  const deletable = canDeleteOrder(order.status);

  return (
    <View className="shop-page order-detail">
      {actionError && <Text className="shop-alert">{actionError}</Text>}
      <View className="shop-card order-detail__head">
        <View className="order-detail__status">
          <Text className="shop-card__title">Order {order.order_sn}</Text>
          <Text className={statusBadgeClass(order.status)}>{STATUS_LABELS[order.status]}</Text>
        </View>
        <Text className="shop-muted order-detail__block">Placed {when(order.created_at)}</Text>
        <Text
          className="shop-button shop-button--ghost shop-button--small order-detail__link"
          onClick={() => void openPage(CS_PAGES.customer, { order_id: String(order.order_id) })}
        >
          Questions about this order? Chat with us ›
        </Text>
        {/* The way on after paying (this page has no tab bar): every order, as Mine's "Orders" shows them. */}
        <Text
          className="shop-button shop-button--ghost shop-button--small order-detail__link"
          onClick={() => void goTo('orderList')}
        >
          All my orders ›
        </Text>
      </View>

      <View className="shop-card">
        <Text className="shop-card__title">Items</Text>
        {order.lines.map((line) => (
          <View className="order-detail__line" key={line.line_id}>
            <Image className="order-detail__thumb" src={imageUrl(line.goods_img)} mode="aspectFit" />
            <View className="order-detail__line-body">
              <Text className="order-detail__name">{line.goods_name}</Text>
              <Text className="shop-muted">Colour: {line.color_name}</Text>
              <Text className="shop-muted">Lenses: {lensSummary(line.lens_detail).join(', ')}</Text>
              {line.prescription && (
                <View className="order-detail__rx">
                  <Text className="shop-muted">Prescription: {line.prescription.name}</Text>
                  <Text className="shop-muted">OD {describeEye(line.prescription.od)}</Text>
                  <Text className="shop-muted">OS {describeEye(line.prescription.os)}</Text>
                  <Text className="shop-muted">{describePd(line.prescription.pd)}</Text>
                  {line.prescription.image_url && (
                    <Image
                      className="order-detail__rx-photo"
                      src={imageUrl(line.prescription.image_url)}
                      mode="aspectFill"
                    />
                  )}
                </View>
              )}
              <View className="shop-row">
                <Text className="shop-muted">
                  <Money value={line.unit_price} className="shop-muted" /> × {line.quantity}
                </Text>
                <Money value={line.line_total} />
              </View>
            </View>
          </View>
        ))}
      </View>

      <View className="shop-card">
        <Text className="shop-card__title">Payment</Text>
        <View className="shop-row">
          <Text className="shop-row__label">Subtotal</Text>
          <Money value={order.subtotal} />
        </View>
        {order.coupon && (
          <View className="shop-row">
            <Text className="shop-row__label">Coupon {order.coupon.code}</Text>
            <Money value={-order.coupon_discount} />
          </View>
        )}
        <View className="shop-row">
          <Text className="shop-row__label">Shipping · {order.shipping_method.name}</Text>
          <Money value={order.shipping_fee} />
        </View>
        <View className="shop-row shop-row--total">
          <Text>Total</Text>
          <Money value={order.total} />
        </View>
        {order.refunded > 0 && (
          <View className="shop-row">
            <Text className="shop-row__label">Refunded</Text>
            <Money value={order.refunded} />
          </View>
        )}
        <Text className="shop-muted order-detail__paid">
          {order.paid_at ? `Paid on ${when(order.paid_at)}` : order.status === 'created' ? 'Not paid yet' : ''}
        </Text>
      </View>

      <View className="shop-card">
        <Text className="shop-card__title">Delivery</Text>
        <Text className="order-detail__name">
          {address.first_name} {address.last_name} · {address.phone}
        </Text>
        <Text className="shop-muted order-detail__block">
          {[address.street, address.street2, address.zip, address.city, address.province, address.country_code]
            .filter(Boolean)
            .join(', ')}
        </Text>
        <Text className="shop-muted order-detail__block">
          {order.shipping_method.name}, {order.shipping_method.min_days}–{order.shipping_method.max_days} days
        </Text>
      </View>

      <View className="shop-card">
        <Text className="shop-card__title">Tracking</Text>
        <TrackingView order={order} />
      </View>

      <View className="shop-card">
        <Text className="shop-card__title">History</Text>
        <HistoryView order={order} />
      </View>

      {(order.status === 'created' || deletable) && (
        <View className="shop-footer order-detail__footer">
          {deletable && (
            <View className="shop-button shop-button--danger order-detail__delete" onClick={remove}>
              <Text>Delete order</Text>
            </View>
          )}
          {order.status === 'created' && (
            <View
              className="shop-button order-detail__pay"
              onClick={() => void openPage(PAYMENT_PAGE, { order_id: String(order.order_id) })}
            >
              <Text>Pay now</Text>
            </View>
          )}
        </View>
      )}
    </View>
  );
}
