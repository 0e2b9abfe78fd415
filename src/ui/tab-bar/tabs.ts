import { atom } from 'jotai';

/** 'reviews' is a tab page (app.config tabBar.list) without a button of its own in the bar. */
export type TabKey = 'home' | 'mine' | 'reviews';

/** The tab page on screen; the weapp custom tab bar reads it, tab pages set it when shown. */
export const currentTabAtom = atom<TabKey>('home');
