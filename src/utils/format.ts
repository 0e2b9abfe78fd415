import dayjs, { type ConfigType } from 'dayjs';

/** Price and number display rules of shop-app.md §5 and §9. */

export const PRICE_DECIMALS = 2;
export const DEFAULT_GROUP_SIZE = 3;

function toFiniteNumber(value: number | string, what: string): number {
  const number = typeof value === 'number' ? value : Number(value);
  if (typeof value === 'string' && value.trim() === '') {
    throw new TypeError(`${what} is empty`);
  }
  if (!Number.isFinite(number)) {
    throw new TypeError(`${what} is not a number: ${String(value)}`);
  }
  return number;
}

function roundTo(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round((value + Math.sign(value) * Number.EPSILON) * factor) / factor;
}

/** A price with exactly 2 decimals, rounded half away from zero: 1.005 shows as '1.01'. */
export function formatPrice(value: number | string): string {
  return roundTo(toFiniteNumber(value, 'Price'), PRICE_DECIMALS).toFixed(PRICE_DECIMALS);
}

function checkDiscount(stored: number): number {
  const discount = toFiniteNumber(stored, 'Discount');
  if (discount < 0 || discount > 100) {
    throw new RangeError(`Discount must be between 0 and 100: ${stored}`);
  }
  return discount;
}

/** The discount shown to the shopper: the stored value is the percent of the price they pay. */
export function shownDiscount(stored: number): number {
  return roundTo(100 - checkDiscount(stored), PRICE_DECIMALS);
}

/** What the shopper pays: shop price times the stored percent-of-price factor, to the cent. */
export function finalPrice(shopPrice: number, storedDiscount: number): number {
  return roundTo((toFiniteNumber(shopPrice, 'Price') * checkDiscount(storedDiscount)) / 100, PRICE_DECIMALS);
}

/** A badge number is an integer of 0 or more. */
export function isBadgeNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

/** A stored or received count as a badge: fractions round down, anything negative or not a number is 0. */
export function toBadgeNumber(value: unknown): number {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isFinite(number) || number < 0) return 0;
  return Math.floor(number);
}

/** Splits a list into rows of `size` (default 3); the last row holds the remainder. */
export function chunk<T>(list: readonly T[], size = DEFAULT_GROUP_SIZE): T[][] {
  if (!Number.isInteger(size) || size < 1) {
    throw new RangeError(`Group size must be a positive integer: ${size}`);
  }
  const rows: T[][] = [];
  for (let i = 0; i < list.length; i += size) {
    rows.push(list.slice(i, i + size));
  }
  return rows;
}

const ELAPSED_UNITS: ReadonlyArray<[seconds: number, word: string]> = [
  [86400, '天'],
  [3600, '小时'],
  [60, '分钟'],
  [1, '秒'],
];

/**
 * Time elapsed from `from` to `now` in Chinese units, from the largest non-zero unit down to seconds:
 * 90061 s is '1天1小时1分钟1秒', 3600 s is '1小时0分钟0秒', 5 s is '5秒'. A future `from` counts as '0秒'.
 */
export function formatElapsed(from: ConfigType, now: ConfigType = Date.now()): string {
  let seconds = Math.max(0, dayjs(now).diff(dayjs(from), 'second'));
  const parts: string[] = [];
  for (const [unit, word] of ELAPSED_UNITS) {
    const amount = Math.floor(seconds / unit);
    seconds -= amount * unit;
    if (amount > 0 || parts.length > 0 || unit === 1) {
      parts.push(`${amount}${word}`);
    }
  }
  return parts.join('');
}
