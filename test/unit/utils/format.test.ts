import {
  chunk,
  finalPrice,
  formatElapsed,
  formatPrice,
  isBadgeNumber,
  shownDiscount,
  toBadgeNumber,
} from '@/utils/format';

describe('prices', () => {
  it('always show 2 decimals', () => {
    expect(formatPrice(12)).toBe('12.00');
    expect(formatPrice(12.5)).toBe('12.50');
    expect(formatPrice('99.9')).toBe('99.90');
    expect(formatPrice(0)).toBe('0.00');
  });

  it('round half away from zero despite binary fractions', () => {
    expect(formatPrice(1.005)).toBe('1.01');
    expect(formatPrice(2.675)).toBe('2.68');
    expect(formatPrice(0.1 + 0.2)).toBe('0.30');
    expect(formatPrice(-1.005)).toBe('-1.01');
  });

  it('refuse what is not a number', () => {
    expect(() => formatPrice('abc')).toThrow('Price is not a number: abc');
    expect(() => formatPrice('')).toThrow('Price is empty');
    expect(() => formatPrice(Number.NaN)).toThrow(TypeError);
    expect(() => formatPrice(Number.POSITIVE_INFINITY)).toThrow(TypeError);
  });
});

describe('discount', () => {
  it('shows 100 minus the stored percent-of-price factor', () => {
    expect(shownDiscount(80)).toBe(20);
    expect(shownDiscount(100)).toBe(0);
    expect(shownDiscount(0)).toBe(100);
    expect(shownDiscount(85.5)).toBe(14.5);
    expect(shownDiscount(70.1)).toBe(29.9);
  });

  it('computes the final price from the stored factor, to the cent', () => {
    expect(finalPrice(100, 80)).toBe(80);
    expect(finalPrice(59.99, 85)).toBe(50.99);
    expect(finalPrice(19.99, 100)).toBe(19.99);
    expect(formatPrice(finalPrice(10, 33.333))).toBe('3.33');
  });

  it('refuses a stored discount outside 0 to 100', () => {
    expect(() => shownDiscount(-1)).toThrow('Discount must be between 0 and 100: -1');
    expect(() => finalPrice(10, 101)).toThrow(RangeError);
  });
});

describe('badge numbers', () => {
  it('are integers of 0 or more', () => {
    expect(isBadgeNumber(0)).toBe(true);
    expect(isBadgeNumber(7)).toBe(true);
    expect(isBadgeNumber(-1)).toBe(false);
    expect(isBadgeNumber(1.5)).toBe(false);
    expect(isBadgeNumber('3')).toBe(false);
    expect(isBadgeNumber(Number.NaN)).toBe(false);
  });

  it('turn stored or received counts into a badge: negatives are 0, fractions round down', () => {
    expect(toBadgeNumber(-1)).toBe(0);
    expect(toBadgeNumber(1.5)).toBe(1);
    expect(toBadgeNumber('12')).toBe(12);
    expect(toBadgeNumber('')).toBe(0);
    expect(toBadgeNumber(undefined)).toBe(0);
    expect(toBadgeNumber('many')).toBe(0);
    expect(toBadgeNumber(Number.POSITIVE_INFINITY)).toBe(0);
  });
});

describe('grouping lists', () => {
  it('splits into rows of 3 by default, the last row holding the rest', () => {
    expect(chunk([1, 2, 3, 4, 5, 6, 7])).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
    expect(chunk([1, 2, 3])).toEqual([[1, 2, 3]]);
    expect(chunk([])).toEqual([]);
  });

  it('takes another group size', () => {
    expect(chunk(['a', 'b', 'c', 'd', 'e'], 2)).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
    expect(chunk([1, 2], 5)).toEqual([[1, 2]]);
  });

  it('refuses a group size that is not a positive integer', () => {
    expect(() => chunk([1], 0)).toThrow('Group size must be a positive integer: 0');
    expect(() => chunk([1], 1.5)).toThrow(RangeError);
  });
});

describe('elapsed time', () => {
  const start = new Date('2026-01-01T00:00:00Z');
  const later = (seconds: number) => new Date(start.getTime() + seconds * 1000);

  it('uses the Chinese units 天 小时 分钟 秒 from the largest non-zero unit down', () => {
    expect(formatElapsed(start, later(90061))).toBe('1天1小时1分钟1秒');
    expect(formatElapsed(start, later(3661))).toBe('1小时1分钟1秒');
    expect(formatElapsed(start, later(125))).toBe('2分钟5秒');
    expect(formatElapsed(start, later(5))).toBe('5秒');
  });

  it('keeps the zero units inside the range', () => {
    expect(formatElapsed(start, later(86400))).toBe('1天0小时0分钟0秒');
    expect(formatElapsed(start, later(3600))).toBe('1小时0分钟0秒');
  });

  it('shows 0秒 for no time and for a start in the future', () => {
    expect(formatElapsed(start, start)).toBe('0秒');
    expect(formatElapsed(later(60), start)).toBe('0秒');
  });

  it('accepts epoch milliseconds and date strings', () => {
    expect(formatElapsed(start.getTime(), later(61).getTime())).toBe('1分钟1秒');
    expect(formatElapsed('2026-01-01T00:00:00Z', '2026-01-03T00:00:30Z')).toBe('2天0小时0分钟30秒');
  });
});
