import { useRouteRecord } from '@/core/use-route-record';
import { AdminDenied } from '@/features/admin/AdminDenied';
import { confirmAction } from '@/features/admin/confirm';
import {
  CONFIRM_CANCEL,
  CONFIRM_DELIVER,
  CONFIRM_REFUND,
  CONFIRM_SHIP,
  cancelOrder,
  deliverOrder,
  describeStep,
  getOrder,
  refundOrder,
  shipOrder,
} from '@/features/admin/orders';
import { failureText, useAdminAccess } from '@/features/admin/use-admin';
import { lensSummary } from '@/features/cart/describe';
import { STATUS_LABELS } from '@/features/order/api';
import { describeEye, describePd } from '@/features/prescription/api';
import { Field } from '@/ui/form/Field';
import { StateView } from '@/ui/shop/StateView';
import { formatPrice } from '@/utils/format';
import { Text, View } from '@tarojs/components';
import { useRouter } from '@tarojs/taro';
import { useCallback, useEffect, useState } from 'react';
import type { AdminOrderDetail } from '../../../types/api';
import '@/features/admin/admin.css';

export const CARRIER_REQUIRED = 'Enter the carrier';
export const TRACKING_INVALID = 'Tracking numbers are 6 to 40 letters, digits or dashes';
export const REFUND_INVALID = 'Enter an amount, or leave it empty to refund all that is left';

const when = (time: number) => new Date(time).toLocaleString();
const newKey = () => `refund-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;

/** One order for the owner: its lines, prescriptions, lenses and address; ship, deliver, cancel, refund; history. */
export default function AdminOrderDetailPage() {
  useRouteRecord();
  const access = useAdminAccess();
  const orderId = Number(useRouter().params.id);
  const [detail, setDetail] = useState<AdminOrderDetail | null>(null);
  const [loadError, setLoadError] = useState('');
  const [actionError, setActionError] = useState('');
  const [busy, setBusy] = useState(false);
  const [carrier, setCarrier] = useState('');
  const [trackingNo, setTrackingNo] = useState('');
  const [refundAmount, setRefundAmount] = useState('');
  const [formError, setFormError] = useState<{ carrier?: string; tracking?: string; refund?: string }>({});

  const load = useCallback(() => {
    setLoadError('');
    getOrder(orderId).then(setDetail, (failure: unknown) =>
      setLoadError(failureText(failure, 'Could not load the order')),
    );
  }, [orderId]);

  useEffect(() => {
    if (access === 'admin') load();
  }, [access, load]);

  if (access === 'guest') return null;
  if (access === 'shopper') return <AdminDenied />;
  if (!detail) {
    return (
      <View className="admin-page">
        {loadError ? (
          <StateView state="error" error={loadError} onRetry={load} />
        ) : (
          <Text className="admin-state">Loading the order…</Text>
        )}
      </View>
    );
  }
  const { order, history } = detail;
  const left = Math.round((order.total - order.refunded) * 100) / 100;

  /** Asks, then makes the step; the answer (the order and its history) replaces the page's. */
  const step = async (question: string, run: () => Promise<AdminOrderDetail>) => {
    if (busy || !(await confirmAction(question))) return;
    setBusy(true);
    setActionError('');
    try {
      setDetail(await run());
    } catch (failure) {
      setActionError(failureText(failure, 'The step failed, try again'));
    } finally {
      setBusy(false);
    }
  };

  const ship = () => {
    const problems = {
      carrier: carrier.trim() ? undefined : CARRIER_REQUIRED,
      tracking: /^[A-Za-z0-9-]{6,40}$/.test(trackingNo.trim()) ? undefined : TRACKING_INVALID,
    };
    setFormError(problems);
    if (problems.carrier || problems.tracking) return;
    void step(CONFIRM_SHIP(order.order_sn, carrier.trim(), trackingNo.trim().toUpperCase()), () =>
      shipOrder(order.order_id, carrier.trim(), trackingNo.trim()),
    );
  };

  const refund = () => {
    const text = refundAmount.trim();
    const amount = text === '' ? undefined : Number(text);
    if (amount !== undefined && (!/^\d+(\.\d{1,2})?$/.test(text) || amount <= 0 || amount > left)) {
      setFormError({ refund: REFUND_INVALID });
      return;
    }
    setFormError({});
    const key = newKey();
    void step(CONFIRM_REFUND(order.order_sn, formatPrice(amount ?? left)), () =>
      refundOrder(order.order_id, amount, key),
    );
  };

  const { address } = order;
  const refundable = ['paid', 'shipped', 'delivered'].includes(order.status) && left > 0;

  return (
    <View className="admin-page">
      <View className="admin-section">
        <Text className="admin-section__title">Order {order.order_sn}</Text>
        <Text className="admin-badge admin-badge--on">{STATUS_LABELS[order.status]}</Text>
        <Text className="admin-status">
          {order.user_email} · placed {when(order.created_at)}
        </Text>
        <Text className="admin-status">
          Total {formatPrice(order.total)}
          {order.refunded > 0 ? ` · refunded ${formatPrice(order.refunded)}` : ''}
          {order.tracking_no ? ` · ${order.carrier} ${order.tracking_no}` : ''}
        </Text>
      </View>

      <View className="admin-section">
        <Text className="admin-section__title">Items</Text>
        {order.lines.map((line) => (
          <View className="admin-order__line" key={line.line_id}>
            <Text className="admin-list__title">
              {line.goods_name} · {line.color_name} × {line.quantity}
            </Text>
            <Text className="admin-list__meta">Lenses: {lensSummary(line.lens_detail).join(', ')}</Text>
            {line.prescription && (
              <View>
                <Text className="admin-list__meta">Prescription: {line.prescription.name}</Text>
                <Text className="admin-list__meta">OD {describeEye(line.prescription.od)}</Text>
                <Text className="admin-list__meta">OS {describeEye(line.prescription.os)}</Text>
                <Text className="admin-list__meta">{describePd(line.prescription.pd)}</Text>
              </View>
            )}
            <Text className="admin-list__price">{formatPrice(line.line_total)}</Text>
          </View>
        ))}
      </View>

      <View className="admin-section">
        <Text className="admin-section__title">Ship to</Text>
        <Text className="admin-status">
          {address.first_name} {address.last_name} · {address.phone}
        </Text>
        <Text className="admin-status">
          {[address.street, address.street2, address.zip, address.city, address.province, address.country_code]
            .filter(Boolean)
            .join(', ')}
        </Text>
        <Text className="admin-status">{order.shipping_method.name}</Text>
      </View>

      {actionError && <Text className="admin-order__error">{actionError}</Text>}

      {order.status === 'paid' && (
        <View className="admin-section">
          <Text className="admin-section__title">Ship</Text>
          <Field label="Carrier" name="carrier" value={carrier} onChange={setCarrier} error={formError.carrier} />
          <Field
            label="Tracking number"
            name="tracking_no"
            value={trackingNo}
            onChange={setTrackingNo}
            error={formError.tracking}
          />
          <View className="admin-list__new" onClick={ship}>
            <Text>Ship order</Text>
          </View>
        </View>
      )}
      {order.status === 'shipped' && (
        <View
          className="admin-list__new"
          onClick={() => void step(CONFIRM_DELIVER(order.order_sn), () => deliverOrder(order.order_id))}
        >
          <Text>Mark delivered</Text>
        </View>
      )}
      {refundable && (
        <View className="admin-section">
          <Text className="admin-section__title">Refunds</Text>
          <Field
            label={`Amount (up to ${formatPrice(left)}; empty: all)`}
            name="refund_amount"
            type="digit"
            value={refundAmount}
            onChange={setRefundAmount}
            error={formError.refund}
          />
          <View className="admin-list__new" onClick={refund}>
            <Text>Refund now</Text>
          </View>
        </View>
      )}
      {(order.status === 'created' || order.status === 'paid') && (
        <View
          className="admin-list__new"
          onClick={() =>
            void step(CONFIRM_CANCEL(order.order_sn, order.status === 'paid'), () => cancelOrder(order.order_id))
          }
        >
          <Text>Cancel order</Text>
        </View>
      )}

      <View className="admin-section">
        <Text className="admin-section__title">History</Text>
        {history.length === 0 && <Text className="admin-state">Placed, nothing else yet</Text>}
        {history.map((event, index) => (
          <View key={`${event.created_at}-${index}`} className="admin-history__step">
            <Text>{describeStep(event)}</Text>
            {event.note && <Text className="admin-list__meta"> · {event.note}</Text>}
            <Text className="admin-history__when">{when(event.created_at)}</Text>
          </View>
        ))}
      </View>
    </View>
  );
}
