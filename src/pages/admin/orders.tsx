import { useRouteRecord } from '@/core/use-route-record';
import { AdminDenied } from '@/features/admin/AdminDenied';
import {
  ADMIN_ORDERS_PAGE_SIZE,
  ADMIN_ORDER_DETAIL_PAGE,
  ADMIN_STATUS_TABS,
  DAY_MS,
  dayStart,
  listOrders,
} from '@/features/admin/orders';
import { failureText, useAdminAccess } from '@/features/admin/use-admin';
import { STATUS_LABELS } from '@/features/order/api';
import { Field } from '@/ui/form/Field';
import { StateView } from '@/ui/shop/StateView';
import { formatPrice } from '@/utils/format';
import { Text, View } from '@tarojs/components';
import Taro, { useDidShow } from '@tarojs/taro';
import { useEffect, useState } from 'react';
import type { AdminOrder, AdminOrderListRequest, OrderStatus } from '../../../types/api';
import '@/features/admin/admin.css';

type Load =
  | { state: 'loading' }
  | { state: 'failed'; message: string }
  | { state: 'ready'; list: AdminOrder[]; total: number };

interface Filters {
  status: OrderStatus | undefined;
  q: string;
  from: string;
  to: string;
  page: number;
}

export const DATE_INVALID = 'Dates are written YYYY-MM-DD';

/** The owner's orders: by status, by date, found by order number or e-mail, a page at a time. */
export default function AdminOrders() {
  useRouteRecord();
  const access = useAdminAccess();
  const [filters, setFilters] = useState<Filters>({ status: undefined, q: '', from: '', to: '', page: 1 });
  const [draft, setDraft] = useState({ q: '', from: '', to: '' });
  const [dateError, setDateError] = useState('');
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [shown, setShown] = useState(0);
  // Reloaded each time the list shows again, so a step made on the detail page shows on return.
  useDidShow(() => setShown((times) => times + 1));

  // biome-ignore lint/correctness/useExhaustiveDependencies: `shown` changes each time the page is shown again
  useEffect(() => {
    if (access !== 'admin') return;
    const from = dayStart(filters.from);
    const to = dayStart(filters.to);
    const request: AdminOrderListRequest = {
      page: filters.page,
      page_size: ADMIN_ORDERS_PAGE_SIZE,
      status: filters.status,
      q: filters.q || undefined,
      from,
      to: to === undefined ? undefined : to + DAY_MS,
    };
    setLoad({ state: 'loading' });
    listOrders(request).then(
      (page) => setLoad({ state: 'ready', list: page.list, total: page.total }),
      (failure: unknown) => setLoad({ state: 'failed', message: failureText(failure, 'Could not load the orders') }),
    );
  }, [access, filters, shown]);

  if (access === 'guest') return null;
  if (access === 'shopper') return <AdminDenied />;

  const search = () => {
    const from = dayStart(draft.from);
    const to = dayStart(draft.to);
    if (Number.isNaN(from) || Number.isNaN(to)) {
      setDateError(DATE_INVALID);
      return;
    }
    setDateError('');
    setFilters((current) => ({ ...current, q: draft.q.trim(), from: draft.from, to: draft.to, page: 1 }));
  };
  const pages = load.state === 'ready' ? Math.max(1, Math.ceil(load.total / ADMIN_ORDERS_PAGE_SIZE)) : 1;
  const goTo = (page: number) => setFilters((current) => ({ ...current, page }));

  return (
    <View className="admin-page">
      <View className="admin-tabs admin-tabs--wrap">
        {ADMIN_STATUS_TABS.map((tab) => (
          <View
            key={tab.label}
            className={`admin-tabs__tab ${filters.status === tab.status ? 'admin-tabs__tab--active' : ''}`}
            onClick={() => setFilters((current) => ({ ...current, status: tab.status, page: 1 }))}
          >
            <Text>{tab.label}</Text>
          </View>
        ))}
      </View>
      <View className="admin-section">
        <Field
          label="Order number or e-mail"
          name="q"
          value={draft.q}
          onChange={(q) => setDraft((current) => ({ ...current, q }))}
          onConfirm={search}
        />
        <Field
          label="Placed from (YYYY-MM-DD)"
          name="from"
          value={draft.from}
          onChange={(from) => setDraft((current) => ({ ...current, from }))}
          error={dateError}
        />
        <Field
          label="Placed to (YYYY-MM-DD)"
          name="to"
          value={draft.to}
          onChange={(to) => setDraft((current) => ({ ...current, to }))}
        />
        <View className="admin-list__new" onClick={search}>
          <Text>Search</Text>
        </View>
      </View>
      {load.state === 'loading' && <Text className="admin-state">Loading orders…</Text>}
      {load.state === 'failed' && (
        <StateView state="error" error={load.message} onRetry={() => setShown((times) => times + 1)} />
      )}
      {load.state === 'ready' && load.list.length === 0 && <Text className="admin-state">No orders found</Text>}
      {load.state === 'ready' &&
        load.list.map((order) => (
          <View
            key={order.order_id}
            className="admin-list__item"
            onClick={() => void Taro.navigateTo({ url: `${ADMIN_ORDER_DETAIL_PAGE}?id=${order.order_id}` })}
          >
            <View className="admin-list__text">
              <Text className="admin-list__title">{order.order_sn}</Text>
              <Text className="admin-list__meta">
                {order.user_email} · {new Date(order.created_at).toLocaleString()}
              </Text>
              <Text className="admin-list__price">{formatPrice(order.total)}</Text>
              <Text className={`admin-badge ${order.status === 'paid' ? 'admin-badge--on' : ''}`}>
                {STATUS_LABELS[order.status]}
              </Text>
            </View>
          </View>
        ))}
      {load.state === 'ready' && load.total > 0 && (
        <View className="admin-pager">
          {filters.page > 1 && (
            <View className="admin-tabs__tab" onClick={() => goTo(filters.page - 1)}>
              <Text>‹ Previous</Text>
            </View>
          )}
          <Text className="admin-pager__where">
            Page {filters.page} of {pages} · {load.total} order{load.total === 1 ? '' : 's'}
          </Text>
          {filters.page < pages && (
            <View className="admin-tabs__tab" onClick={() => goTo(filters.page + 1)}>
              <Text>Next ›</Text>
            </View>
          )}
        </View>
      )}
    </View>
  );
}
