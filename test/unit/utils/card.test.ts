import { cardDigits, formatCardNumber, formatExpiryInput, isValidCardNumber, splitExpiry } from '@/utils/card';

describe('card number', () => {
  it('keeps digits only, at most 19', () => {
    expect(cardDigits('4242-4242 abcd 4242')).toBe('424242424242');
    expect(cardDigits('1'.repeat(25))).toHaveLength(19);
  });

  it('shows the digits in groups of four', () => {
    expect(formatCardNumber('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('42424')).toBe('4242 4');
    expect(formatCardNumber('4242')).toBe('4242');
    expect(formatCardNumber('')).toBe('');
  });

  it('accepts numbers that pass the Luhn checksum', () => {
    expect(isValidCardNumber('4242424242424242')).toBe(true);
    expect(isValidCardNumber('5555555555554444')).toBe(true);
    expect(isValidCardNumber('378282246310005')).toBe(true);
  });

  it('accepts the spaces of the grouped display', () => {
    expect(isValidCardNumber('4242 4242 4242 4242')).toBe(true);
    expect(isValidCardNumber(formatCardNumber('4000056655665556'))).toBe(true);
  });

  it('rejects a wrong check digit', () => {
    expect(isValidCardNumber('4242424242424241')).toBe(false);
    expect(isValidCardNumber('4242 4242 4242 4243')).toBe(false);
  });

  it('rejects letters and other characters instead of dropping them', () => {
    expect(isValidCardNumber('4242a424242424242')).toBe(false);
    expect(isValidCardNumber('4242-4242-4242-4242')).toBe(false);
    expect(isValidCardNumber('abcd abcd abcd abcd')).toBe(false);
  });

  it('rejects empty and too short or too long numbers even when the checksum holds', () => {
    expect(isValidCardNumber('')).toBe(false);
    expect(isValidCardNumber('0')).toBe(false);
    expect(isValidCardNumber('18')).toBe(false);
    expect(isValidCardNumber('0'.repeat(20))).toBe(false);
  });
});

describe('card expiry', () => {
  it('adds the slash as soon as the month is complete', () => {
    expect(formatExpiryInput('1')).toBe('1');
    expect(formatExpiryInput('12')).toBe('12/');
    expect(formatExpiryInput('122')).toBe('12/2');
    expect(formatExpiryInput('1228')).toBe('12/28');
    expect(formatExpiryInput('12/28')).toBe('12/28');
  });

  it('keeps at most two year digits', () => {
    expect(formatExpiryInput('122899')).toBe('12/28');
  });

  it('pads a first digit of 2 to 9 into a month', () => {
    expect(splitExpiry('4')).toEqual({ month: '04', year: '' });
    expect(formatExpiryInput('4')).toBe('04/');
    expect(formatExpiryInput('427')).toBe('04/27');
  });

  it('splits month 13 across the fields: month 01, the 3 starts the year', () => {
    expect(splitExpiry('13')).toEqual({ month: '01', year: '3' });
    expect(formatExpiryInput('13')).toBe('01/3');
    expect(formatExpiryInput('130')).toBe('01/30');
  });

  it('splits month 99 across the fields: month 09, the second 9 starts the year', () => {
    expect(splitExpiry('99')).toEqual({ month: '09', year: '9' });
    expect(formatExpiryInput('99')).toBe('09/9');
  });

  it('has no month 00', () => {
    expect(splitExpiry('00')).toEqual({ month: '0', year: '' });
    expect(formatExpiryInput('005')).toBe('05/');
  });

  it('accepts 10, 11 and 12 as months', () => {
    expect(splitExpiry('10')).toEqual({ month: '10', year: '' });
    expect(splitExpiry('11')).toEqual({ month: '11', year: '' });
    expect(splitExpiry('1230')).toEqual({ month: '12', year: '30' });
  });

  it('deleting the automatic slash deletes the last month digit too', () => {
    expect(formatExpiryInput('12', '12/')).toBe('1');
    expect(formatExpiryInput('12/', '12/2')).toBe('12/');
  });
});
