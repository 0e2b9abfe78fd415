import { countLostRequest, setOnline } from '@/state/network';
import { watchNetworkStatus } from './network-status';

let watching = false;

/** At app start: the network status (state/network) follows the platform's. */
export function startNetworkWatch(): void {
  if (watching) return;
  watching = true;
  watchNetworkStatus(setOnline);
}

/** A request failed for the network: it never settles, but what waits on it is released on reconnection. */
export function reportNetworkFailure(): void {
  countLostRequest();
}
