import { formatPrice } from '@/utils/format';
import { Text } from '@tarojs/components';

export const CURRENCY_SYMBOL = '$';

export function money(value: number): string {
  return value < 0 ? `-${CURRENCY_SYMBOL}${formatPrice(-value)}` : `${CURRENCY_SYMBOL}${formatPrice(value)}`;
}

/** A price with 2 decimals and the shop's currency symbol. */
export function Money({ value, className }: { value: number; className?: string }) {
  return <Text className={className ?? 'shop-money'}>{money(value)}</Text>;
}
