import type { MessagingError } from '../../../src/messaging/errors';

/** Runs `action` and returns what it threw, failing the test when it did not throw. */
export function thrown(action: () => unknown): MessagingError {
  try {
    action();
  } catch (error) {
    return error as MessagingError;
  }
  throw new Error('expected the call to throw');
}

export function expectBadRequest(action: () => unknown, content: string): void {
  expect(thrown(action)).toEqual({ code: 400, content });
}
