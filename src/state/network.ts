import { atom } from 'jotai';
import { appStore } from './store';

/** The device's connection as the platform reports it, and what it cost while it was gone. */
export interface NetworkState {
  online: boolean;
  /** Requests that failed for the network so far (they never settle: shop-app.md §8). */
  lost: number;
  /** Times the connection came back after being gone. */
  restored: number;
}

export const networkAtom = atom<NetworkState>({ online: true, lost: 0, restored: 0 });

export function setOnline(online: boolean): void {
  const now = appStore.get(networkAtom);
  if (now.online === online) return;
  appStore.set(networkAtom, { ...now, online, restored: online ? now.restored + 1 : now.restored });
}

export function countLostRequest(): void {
  const now = appStore.get(networkAtom);
  appStore.set(networkAtom, { ...now, lost: now.lost + 1 });
}
