import { goTo } from '@/core/navigation';
import { Text, View } from '@tarojs/components';
import { useEffect, useState } from 'react';
import { EMPTY_SUMMARY, type MineSummary, ORDER_SHORTCUTS, couponLabel, loadMineSummary, mergeSummary } from './mine';
import './mine-overview.css';

/** Orders by status, and the counts of addresses, prescriptions and coupons, on the Mine tab. */
export function MineOverview({ token }: { token: string }) {
  const [summary, setSummary] = useState<MineSummary>(EMPTY_SUMMARY);
  const [showCoupons, setShowCoupons] = useState(false);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` changes when the shopper taps Try again
  useEffect(() => {
    if (!token) return;
    let active = true;
    setSummary(EMPTY_SUMMARY);
    setFailed(false);
    loadMineSummary(
      (part) => {
        if (active) setSummary((current) => mergeSummary(current, part));
      },
      () => {
        if (active) setFailed(true);
      },
    );
    return () => {
      active = false;
    };
  }, [token, attempt]);

  /** A count the tab could not load is not shown as 0. */
  const count = (value: number) => (failed ? '–' : String(value));

  return (
    <View className="mine__card mine-overview">
      <View className="mine-overview__head" onClick={() => void goTo('orderList')}>
        <Text className="mine-overview__title">My orders</Text>
        <Text className="mine-overview__more">All orders</Text>
      </View>
      <View className="mine-overview__row">
        {ORDER_SHORTCUTS.map(({ status, label }) => (
          <View key={status} className="mine-overview__cell" onClick={() => void goTo('orderList', { status })}>
            <Text className="mine-overview__count">{count(summary.orders[status] ?? 0)}</Text>
            <Text className="mine-overview__label">{label}</Text>
          </View>
        ))}
      </View>
      <View className="mine-overview__row mine-overview__row--split">
        <View className="mine-overview__cell" onClick={() => void goTo('addressList')}>
          <Text className="mine-overview__count">{count(summary.addresses)}</Text>
          <Text className="mine-overview__label">Addresses</Text>
        </View>
        <View className="mine-overview__cell" onClick={() => void goTo('myPrescriptionList')}>
          <Text className="mine-overview__count">{count(summary.prescriptions)}</Text>
          <Text className="mine-overview__label">Prescriptions</Text>
        </View>
        <View className="mine-overview__cell" onClick={() => setShowCoupons(!showCoupons)}>
          <Text className="mine-overview__count">{count(summary.coupons.length)}</Text>
          <Text className="mine-overview__label">Coupons</Text>
        </View>
      </View>
      {failed && (
        <View className="mine-overview__failed">
          <Text className="mine-overview__failed-text">Could not load your orders and counts</Text>
          <Text className="mine-overview__retry" onClick={() => setAttempt((times) => times + 1)}>
            Try again
          </Text>
        </View>
      )}
      {showCoupons && (
        <View className="mine-overview__coupons">
          {summary.coupons.length === 0 ? (
            <Text className="mine-overview__empty">No coupons right now</Text>
          ) : (
            summary.coupons.map((coupon) => (
              <View key={coupon.coupon_id} className="mine-overview__coupon">
                <Text className="mine-overview__coupon-title">{coupon.title}</Text>
                <Text className="mine-overview__coupon-detail">
                  {couponLabel(coupon)} · code {coupon.code}
                </Text>
              </View>
            ))
          )}
        </View>
      )}
    </View>
  );
}
