import { createStore } from 'jotai';

/**
 * The one jotai store of the app. app.tsx hands it to <Provider>; code outside React (the request layer,
 * navigation) reads and writes the same atoms through it.
 */
export const appStore = createStore();
