import { PAYMENT_MESSAGES } from '../../../../types/api';

/** The server's own message of a refused call (`{status, msg}`), to act on the payment answers it names. */
export function serverMessage(reason: unknown): string {
  if (typeof reason === 'object' && reason !== null && 'msg' in reason) return String((reason as { msg: unknown }).msg);
  return '';
}

/** The outcome may reach Stripe's answer to the server a moment after the browser's: asked again a few times. */
export async function untilSettled<T>(ask: () => Promise<T>, tries = 6, delayMs = 1000): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await ask();
    } catch (reason) {
      if (serverMessage(reason) !== PAYMENT_MESSAGES.cardNotConfirmed || attempt >= tries) throw reason;
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
  }
}
