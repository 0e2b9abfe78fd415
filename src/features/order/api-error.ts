/** What a rejected product API call (the whole body, shop-app.md §7) tells the shopper. */

export const GENERIC_FAILURE = 'Something went wrong, please try again';

function bodyMessage(reason: unknown): string {
  if (typeof reason === 'object' && reason !== null && 'msg' in reason) {
    const msg = (reason as { msg: unknown }).msg;
    if (typeof msg === 'string' && msg !== '') return msg;
  }
  if (reason instanceof Error && reason.message) return reason.message;
  return '';
}

/** The server's message, e.g. 'zip: must be a postal code', split into the field it names and the text. */
export function fieldError(reason: unknown): { field: string; message: string } {
  const msg = bodyMessage(reason);
  const match = /^([a-z_]+(?:\.\d+)?(?:\.[a-z_]+)?): (.+)$/.exec(msg);
  if (match) return { field: match[1], message: match[2] };
  return { field: '', message: msg || GENERIC_FAILURE };
}

/** A full sentence for a toast or a banner: 'card_number: Your card was declined.' shows 'Your card was declined.'. */
export function failureMessage(reason: unknown): string {
  const { message } = fieldError(reason);
  return message.charAt(0).toUpperCase() + message.slice(1);
}
