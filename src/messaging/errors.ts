/** Every failure the SDK reports is a plain `{code, content}` object, as in the GoEasy 2.8 client. */
export interface MessagingError {
  code: number;
  content: string;
}

export const ErrorCode = {
  BAD_REQUEST: 400,
  NO_PERMISSION: 401,
  TIMEOUT: 408,
  NOT_CONNECTED: 409,
  /** The server's flood limit: the content says which (per connection or per user) and how many per second. */
  TOO_MANY_REQUESTS: 429,
  UPLOAD_FAILED: 500,
} as const;

export const ErrorText = {
  NO_PERMISSION: 'No permission',
  HOST_UNREACHABLE: 'Host unreachable or timeout',
  FAILED_TO_CONNECT: 'Failed to connect',
  CONNECT_FIRST: 'Please connect first',
  CALL_CONNECT_FIRST: 'Please call connect() first.',
  ALREADY_CONNECTED: "It is already connected, don't try again until disconnect() is called.",
  SUBSCRIBE_GROUP_FAILED: 'Failed to subscribe group message',
  UNSUBSCRIBE_GROUP_FAILED: 'Failed to unsubscribe group message',
  UNSUBSCRIBE_PRESENCE_FAILED: 'Failed to unsubscribe presence',
  GROUP_HERE_NOW_FAILED: 'Failed to query online group users',
  SENT_ONCE: 'Please create a new message, a message can only be sent once',
  INVALID_MESSAGE: 'it is invalid message',
  NOTHING_TO_DELETE: 'No message that could be deleted',
  PENDING_TOP_REMOVE: 'pending conversation cannot be topped or removed.',
  CS_REMOVE_BEFORE_END: 'CS conversation can only be deleted after it ends',
  NO_CONVERSATION: 'conversation does not exist.',
  STORAGE_UNSUPPORTED: 'Only Ali OSS and Tencent COS are supported',
} as const;

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
