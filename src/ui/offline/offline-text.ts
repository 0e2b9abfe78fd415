/** What the offline banner says. */
export const OFFLINE_TEXT = 'You are offline. What you asked for waits until the connection is back.';
