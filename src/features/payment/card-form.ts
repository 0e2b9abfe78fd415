import { cardDigits, isValidCardNumber, splitExpiry } from '@/utils/card';
import type { CardDetails } from './api';

export interface CardForm {
  /** As shown: digits in groups of four. */
  number: string;
  /** As shown: 'MM/YY'. */
  expiry: string;
  cvc: string;
}

export type CardErrors = Partial<Record<keyof CardForm, string>>;

export const CARD_NUMBER_MESSAGE = 'Enter a valid card number';
export const EXPIRY_MESSAGE = 'Enter the expiry date as MM/YY';
export const EXPIRED_MESSAGE = 'This card has expired';
export const CVC_MESSAGE = 'Enter the 3 or 4 digits on the back of the card';

/** Checks the form the way the card provider will; on success answers the card to send. */
export function readCard(form: CardForm, now = new Date()): { card: CardDetails | null; errors: CardErrors } {
  const errors: CardErrors = {};
  if (!isValidCardNumber(form.number)) errors.number = CARD_NUMBER_MESSAGE;
  const { month, year } = splitExpiry(form.expiry);
  const monthNumber = Number(month);
  const fullYear = 2000 + Number(year);
  if (month.length !== 2 || year.length !== 2 || monthNumber < 1 || monthNumber > 12) {
    errors.expiry = EXPIRY_MESSAGE;
  } else if (fullYear < now.getFullYear() || (fullYear === now.getFullYear() && monthNumber < now.getMonth() + 1)) {
    errors.expiry = EXPIRED_MESSAGE;
  }
  if (!/^\d{3,4}$/.test(form.cvc)) errors.cvc = CVC_MESSAGE;
  if (Object.keys(errors).length > 0) return { card: null, errors };
  return { card: { number: cardDigits(form.number), month: monthNumber, year: fullYear, cvc: form.cvc }, errors };
}
