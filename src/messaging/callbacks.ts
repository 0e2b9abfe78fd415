import { type MessagingError, toMessagingError } from './errors';

export interface CallbackOptions<T = unknown> {
  onSuccess?(result: T): void;
  onFailed?(error: MessagingError): void;
}

export interface Result<T> {
  code: number;
  content: T;
}

export const ok = <T>(content: T): Result<T> => ({ code: 200, content });

/**
 * Runs one API call for both styles: the callbacks fire, and the returned promise settles the same
 * way. With callbacks given, a rejection nobody awaits is not reported as unhandled.
 */
export function settle<T>(options: CallbackOptions<T> | undefined, work: () => Promise<T> | T): Promise<T> {
  let promise: Promise<T>;
  try {
    promise = Promise.resolve(work());
  } catch (error) {
    promise = Promise.reject(error);
  }
  const result = promise.catch((error: unknown) => {
    throw toMessagingError(error);
  });
  result.then(
    (value) => options?.onSuccess?.(value),
    (error: MessagingError) => options?.onFailed?.(error),
  );
  return result;
}

export function randomId(): string {
  const bytes = new Uint8Array(16);
  const crypto = (globalThis as { crypto?: { getRandomValues?(array: Uint8Array): Uint8Array } }).crypto;
  if (crypto?.getRandomValues) crypto.getRandomValues(bytes);
  else for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

export function parseJson<T = Record<string, unknown>>(raw: unknown, fallback: T): T {
  if (typeof raw !== 'string') return raw === undefined || raw === null ? fallback : (raw as T);
  try {
    return JSON.parse(raw) as T;
  } catch {
    return fallback;
  }
}

/**
 * The sync `create*Message` calls: the message is returned, and (as GoEasy does) handed to `onSuccess` a moment
 * later; a refusal is thrown, or handed to `onFailed` when there is one.
 */
export function createOrFail<T>(options: unknown, create: () => T): T {
  try {
    const message = create();
    const onSuccess = (options as { onSuccess?: (message: T) => void } | undefined)?.onSuccess;
    if (typeof onSuccess === 'function') Promise.resolve(message).then(onSuccess);
    return message;
  } catch (error) {
    const failure = toMessagingError(error);
    const onFailed = (options as { onFailed?: (error: MessagingError) => void } | undefined)?.onFailed;
    if (typeof onFailed === 'function') {
      onFailed(failure);
      return undefined as T;
    }
    throw failure;
  }
}
