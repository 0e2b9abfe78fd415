import { taroStorage } from '@/state/taro-storage';
import { atomWithStorage } from 'jotai/utils';

/** The unread message total under the storage key `unreadTotal`, shown as the Mine tab's badge. */
export const unreadTotalAtom = atomWithStorage<number>('unreadTotal', 0, taroStorage<number>(), { getOnInit: true });
