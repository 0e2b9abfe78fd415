/** Card number and expiry input rules of shop-app.md §5. */

const CARD_MIN_DIGITS = 12;
const CARD_MAX_DIGITS = 19;

/** Keeps only the digits the user typed, at most 19 (the longest card number). */
export function cardDigits(input: string): string {
  return input.replace(/\D/g, '').slice(0, CARD_MAX_DIGITS);
}

/** The card number as shown while typing: digits in groups of four. */
export function formatCardNumber(input: string): string {
  return cardDigits(input).replace(/(\d{4})(?=\d)/g, '$1 ');
}

/**
 * True when the number (spaces allowed between groups) is 12 to 19 digits and passes the Luhn checksum.
 * Any other character, letters included, makes it invalid instead of being silently dropped.
 */
export function isValidCardNumber(input: string): boolean {
  const digits = input.replace(/\s/g, '');
  if (!/^\d+$/.test(digits) || digits.length < CARD_MIN_DIGITS || digits.length > CARD_MAX_DIGITS) {
    return false;
  }
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

export interface CardExpiry {
  /** '', one digit while the month is still ambiguous ('0' or '1'), or two digits '01'..'12'. */
  month: string;
  /** Up to two digits. */
  year: string;
}

/**
 * Splits typed digits into month and year. A first digit of 2-9 can only be a month on its own, so it
 * becomes '0d' and the next digits belong to the year. After a leading '1', a second digit that would make
 * a month above 12 ('13'..'19') closes the month as '01' and starts the year: '13' gives month '01', year '3'.
 * After a leading '0', a second '0' is dropped (there is no month 00).
 */
export function splitExpiry(input: string): CardExpiry {
  const digits = input.replace(/\D/g, '');
  let month = '';
  let rest = '';
  for (let i = 0; i < digits.length; i += 1) {
    const digit = digits[i];
    if (month.length === 2) {
      rest = digits.slice(i);
      break;
    }
    if (month === '') {
      month = digit >= '2' ? `0${digit}` : digit;
    } else if (month === '0') {
      if (digit !== '0') month = `0${digit}`;
    } else if (digit <= '2') {
      month = `1${digit}`;
    } else {
      month = '01';
      rest = digits.slice(i);
      break;
    }
  }
  return { month, year: rest.slice(0, 2) };
}

/**
 * The expiry field's text after an edit, 'MM/YY' with the slash added as soon as the month is complete.
 * Deleting the automatic slash (previous 'MM/', next 'MM') also deletes the month's last digit, so
 * backspace is never stuck on the slash.
 */
export function formatExpiryInput(next: string, previous = ''): string {
  const text = previous.endsWith('/') && next === previous.slice(0, -1) ? next.slice(0, -1) : next;
  const { month, year } = splitExpiry(text);
  return month.length === 2 ? `${month}/${year}` : month;
}
