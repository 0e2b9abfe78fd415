import { ErrorCode } from './protocol';

export { ErrorCode };

/** Every failure the SDK reports is a plain `{code, content}` object, as in the GoEasy 2.8 client. */
export interface MessagingError {
  code: number;
  content: string;
}

export function messagingError(code: number, content: string): MessagingError {
  return { code, content };
}

export function badRequest(content: string): MessagingError {
  return { code: ErrorCode.BAD_REQUEST, content };
}

export function isMessagingError(value: unknown): value is MessagingError {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as MessagingError).code === 'number' &&
    typeof (value as MessagingError).content === 'string'
  );
}

/** Anything thrown or answered by the server, turned into `{code, content}`. */
export function toMessagingError(value: unknown, fallbackCode: number = ErrorCode.BAD_REQUEST): MessagingError {
  if (isMessagingError(value)) return { code: value.code, content: value.content };
  if (typeof value === 'object' && value !== null) {
    const body = value as { resultCode?: unknown; code?: unknown; content?: unknown; message?: unknown };
    const code = Number(body.resultCode ?? body.code ?? fallbackCode);
    const content = body.content ?? body.message;
    return {
      code: Number.isFinite(code) ? code : fallbackCode,
      content: typeof content === 'string' ? content : String(content ?? ''),
    };
  }
  return { code: fallbackCode, content: String(value) };
}
