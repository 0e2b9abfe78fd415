import { goTo, openPage, requireLogin } from '@/core/navigation';
import { imageUrl } from '@/core/request';
import { NAMED_TARGETS } from '@/core/routes';
import { useRouteRecord } from '@/core/use-route-record';
import { type Order, type OrderStatus, STATUS_LABELS, fetchOrders } from '@/features/order/api';
import { failureMessage } from '@/features/order/api-error';
import { ORDER_TABS, statusBadgeClass } from '@/features/order/status';
import { usePageLoad } from '@/features/order/use-page-load';
import { PAYMENT_PAGE } from '@/features/payment/routes';
import { Money } from '@/ui/shop/Money';
import { EmptyView, type LoadState, StateView } from '@/ui/shop/StateView';
import { Image, Text, View } from '@tarojs/components';
import { useReachBottom, useRouter } from '@tarojs/taro';
import { useCallback, useEffect, useRef, useState } from 'react';
import '@/ui/shop/shop.css';
import './order-list-main.css';

function isStatus(value: string | undefined): value is OrderStatus {
  return ORDER_TABS.some((tab) => tab.status === value);
}

export default function OrderListPage() {
  useRouteRecord();
  const initial = useRouter().params.status;
  const [status, setStatus] = useState<OrderStatus | undefined>(isStatus(initial) ? initial : undefined);
  const [orders, setOrders] = useState<Order[]>([]);
  const [total, setTotal] = useState(0);
  const [state, setState] = useState<LoadState>('loading');
  const [error, setError] = useState('');
  const [loadingMore, setLoadingMore] = useState(false);
  const pageRef = useRef(1);
  const statusRef = useRef(status);

  useEffect(() => {
    requireLogin({ path: NAMED_TARGETS.orderList, query: {} });
  }, []);

  const load = useCallback((wanted: OrderStatus | undefined) => {
    statusRef.current = wanted;
    pageRef.current = 1;
    setState('loading');
    fetchOrders(wanted, 1).then(
      (page) => {
        if (statusRef.current !== wanted) return;
        setOrders(page.list);
        setTotal(page.total);
        setState('ready');
      },
      (reason: unknown) => {
        setError(failureMessage(reason));
        setState('error');
      },
    );
  }, []);

  const reload = useCallback(() => load(statusRef.current), [load]);
  usePageLoad(reload);

  useReachBottom(() => {
    if (state !== 'ready' || loadingMore || orders.length >= total) return;
    const wanted = statusRef.current;
    const next = pageRef.current + 1;
    setLoadingMore(true);
    fetchOrders(wanted, next).then(
      (page) => {
        setLoadingMore(false);
        if (statusRef.current !== wanted) return;
        pageRef.current = next;
        setOrders((shown) => [...shown, ...page.list]);
        setTotal(page.total);
      },
      (reason: unknown) => {
        setLoadingMore(false);
        setError(failureMessage(reason));
      },
    );
  });

  const choose = (next: OrderStatus | undefined) => {
    setStatus(next);
    load(next);
  };

  return (
    <View className="order-list">
      <View className="order-tabs">
        {ORDER_TABS.map((tab) => (
          <View
            key={tab.label}
            className={`order-tabs__tab ${tab.status === status ? 'order-tabs__tab--on' : ''}`}
            onClick={() => choose(tab.status)}
          >
            <Text>{tab.label}</Text>
          </View>
        ))}
      </View>
      <View className="shop-page order-list__body">
        <StateView state={state} error={error} onRetry={() => load(status)} />
        {state === 'ready' && orders.length === 0 && (
          <EmptyView
            title={status ? `No ${STATUS_LABELS[status].toLowerCase()} orders` : 'No orders yet'}
            hint="Your orders appear here as soon as you place them."
            action="Browse glasses"
            onAction={() => void goTo('index')}
          />
        )}
        {state === 'ready' &&
          orders.map((order) => (
            <View
              key={order.order_id}
              className="shop-card order-card"
              onClick={() => void goTo('orderDetail', { order_id: String(order.order_id) })}
            >
              <View className="order-card__head">
                <Text className="order-card__sn">{order.order_sn}</Text>
                <Text className={statusBadgeClass(order.status)}>{STATUS_LABELS[order.status]}</Text>
              </View>
              <View className="order-card__items">
                {order.lines.slice(0, 3).map((line) => (
                  <Image
                    key={line.line_id}
                    className="order-card__thumb"
                    src={imageUrl(line.goods_img)}
                    mode="aspectFit"
                  />
                ))}
                <View className="order-card__names">
                  <Text className="order-card__name">{order.lines[0]?.goods_name}</Text>
                  <Text className="shop-muted">
                    {order.lines.reduce((sum, line) => sum + line.quantity, 0)} items ·{' '}
                    {new Date(order.created_at).toLocaleDateString()}
                  </Text>
                </View>
              </View>
              <View className="order-card__foot">
                <Text className="shop-muted">Total</Text>
                <Money value={order.total} className="order-card__total" />
                {order.status === 'created' && (
                  <View
                    className="shop-button shop-button--small order-card__pay"
                    onClick={(event) => {
                      event.stopPropagation();
                      void openPage(PAYMENT_PAGE, { order_id: String(order.order_id) });
                    }}
                  >
                    <Text>Pay now</Text>
                  </View>
                )}
              </View>
            </View>
          ))}
        {loadingMore && <Text className="shop-muted order-list__more">Loading more…</Text>}
        {state === 'ready' && orders.length > 0 && orders.length >= total && (
          <Text className="shop-muted order-list__more">That is all your orders</Text>
        )}
      </View>
    </View>
  );
}
