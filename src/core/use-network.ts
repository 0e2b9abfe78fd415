import { networkAtom } from '@/state/network';
import { useAtomValue } from 'jotai';
import { useCallback, useEffect, useRef, useState } from 'react';

/** Whether the device is online, as the platform reports it. */
export function useOnline(): boolean {
  return useAtomValue(networkAtom).online;
}

/**
 * A "waiting for the server" flag (a button's busy state, a list's next page) that a lost connection does not
 * leave set for good. A request that fails for the network never settles (shop-app.md §8), so what waits on
 * it would wait forever: when the connection comes back and a request failed for the network while this was
 * set, the flag is cleared (and `onReleased` runs), so the user can try again. Otherwise it is an ordinary
 * state: the caller clears it when its request settles.
 */
export function useWaiting(onReleased?: () => void): [boolean, (waiting: boolean) => void] {
  const network = useAtomValue(networkAtom);
  const [waiting, setWaitingState] = useState(false);
  const since = useRef({ lost: 0, restored: 0 });
  const released = useRef(onReleased);
  released.current = onReleased;
  const networkRef = useRef(network);
  networkRef.current = network;
  const setWaiting = useCallback((next: boolean) => {
    if (next) {
      const { lost, restored } = networkRef.current;
      since.current = { lost, restored };
    }
    setWaitingState(next);
  }, []);
  useEffect(() => {
    if (!waiting) return;
    if (network.restored > since.current.restored && network.lost > since.current.lost) {
      setWaitingState(false);
      released.current?.();
    }
  }, [waiting, network.restored, network.lost]);
  return [waiting, setWaiting];
}
