import { userAtom } from '@/state/customer';
import { appStore } from '@/state/store';
import type { loadChatSessionWhenSignedIn as Load } from './session-loader';

/** How long after the first screen the session waits for a quiet moment before loading the messaging SDK. */
export const SESSION_IDLE_TIMEOUT_MS = 2000;

let loading = false;
let watching = false;

function whenIdle(run: () => void): void {
  const idle = (globalThis as { requestIdleCallback?: (callback: () => void, options: { timeout: number }) => void })
    .requestIdleCallback;
  if (idle) idle(run, { timeout: SESSION_IDLE_TIMEOUT_MS });
  else setTimeout(run, 0);
}

function load(): void {
  if (loading || !appStore.get(userAtom)?.token) return;
  loading = true;
  whenIdle(() => {
    import('./session').then(
      ({ startChatSession }) => startChatSession(),
      (failure: unknown) => {
        loading = false;
        console.error('The chat session could not be loaded', failure);
      },
    );
  });
}

/**
 * Called by the app after its first render: the messaging SDK stays out of the first load. Once a user is
 * signed in (now, with a stored session, or later) the chat session is loaded in a quiet moment and from then
 * on follows the signed-in user itself.
 */
export const loadChatSessionWhenSignedIn: typeof Load = () => {
  if (watching) return;
  watching = true;
  appStore.sub(userAtom, load);
  load();
};
