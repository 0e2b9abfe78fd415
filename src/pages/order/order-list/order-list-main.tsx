import { goTo, openPage, requireLogin } from '@/core/navigation';
import { imageUrl } from '@/core/request';
import { NAMED_TARGETS } from '@/core/routes';
import { useRouteRecord } from '@/core/use-route-record';
import { type OrderStatus, STATUS_LABELS, fetchOrders } from '@/features/order/api';
import { GENERIC_FAILURE, failureMessage } from '@/features/order/api-error';
import { ORDER_TABS, statusBadgeClass } from '@/features/order/status';
import { PagedFoot } from '@/features/paging/PagedFoot';
import { usePagedList } from '@/features/paging/use-paged-list';
import { PAYMENT_PAGE } from '@/features/payment/routes';
import { userAtom } from '@/state/customer';
import { Money } from '@/ui/shop/Money';
import { EmptyView, type LoadState, StateView } from '@/ui/shop/StateView';
import { Image, Text, View } from '@tarojs/components';
import { useDidShow, useReachBottom, useRouter } from '@tarojs/taro';
import { useAtomValue } from 'jotai';
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
  const signedIn = useAtomValue(userAtom) !== null;

  useEffect(() => {
    requireLogin({ path: NAMED_TARGETS.orderList, query: {} });
  }, []);

  const load = useCallback((page: number) => fetchOrders(status, page), [status]);
  const list = usePagedList(status ?? 'all', load, {
    enabled: signedIn,
    failedText: GENERIC_FAILURE,
    describe: failureMessage,
  });
  const { reload } = list;
  // Back from an order (paid, cancelled, reviewed): the list is read again.
  const firstShowSeen = useRef(false);
  useDidShow(() => {
    if (!firstShowSeen.current) {
      firstShowSeen.current = true;
      return;
    }
    if (signedIn) reload();
  });
  useReachBottom(list.loadMore);
  const orders = list.items;
  const state: LoadState = list.loading ? 'loading' : orders.length === 0 && list.error ? 'error' : 'ready';

  const choose = (next: OrderStatus | undefined) => {
    if (next === status) reload();
    else setStatus(next);
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
        <StateView state={state} error={list.error} onRetry={list.retry} />
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
        {state === 'ready' && <PagedFoot list={list} doneText="That is all your orders" />}
      </View>
    </View>
  );
}
