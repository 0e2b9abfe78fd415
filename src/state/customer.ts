import { atom } from 'jotai';
import { atomWithStorage } from 'jotai/utils';
import { appStore } from './store';
import { taroStorage } from './taro-storage';

/** The signed-in user as the login answer gives it; a guest has no user (and so no token). */
export interface SignedInUser {
  user_id: number;
  email: string;
  nickname: string;
  avatar: string;
  is_admin: boolean;
  token: string;
  [field: string]: unknown;
}

export type PageParams = Record<string, string>;

export interface Customer {
  photo: string;
  /** The protected page a guest asked for, opened again after login. */
  toPage: string;
  toPageParams: PageParams;
  user: SignedInUser | null;
  resetPassword: boolean;
  resetPasswordEmail: string;
}

type CustomerSession = Omit<Customer, 'user'>;

const initialSession: CustomerSession = {
  photo: '',
  toPage: '',
  toPageParams: {},
  resetPassword: false,
  resetPasswordEmail: '',
};

/** Only the user (with its token) survives a reload; the rest lives for the session. */
export const userAtom = atomWithStorage<SignedInUser | null>('user', null, taroStorage<SignedInUser | null>(), {
  getOnInit: true,
});

const customerSessionAtom = atom<CustomerSession>(initialSession);

export const customerAtom = atom(
  (get): Customer => ({ ...get(customerSessionAtom), user: get(userAtom) }),
  (get, set, update: Partial<Customer>) => {
    const { user, ...session } = update;
    if ('user' in update) {
      set(userAtom, user ?? null);
    }
    if (Object.keys(session).length > 0) {
      set(customerSessionAtom, { ...get(customerSessionAtom), ...session });
    }
  },
);

export function currentUser(): SignedInUser | null {
  return appStore.get(userAtom);
}

/** The login token of the stored user, or '' for a guest. */
export function currentToken(): string {
  return currentUser()?.token ?? '';
}

export function signIn(user: SignedInUser): void {
  appStore.set(userAtom, user);
}

export function signOut(): void {
  appStore.set(userAtom, null);
}

export function rememberTarget(toPage: string, toPageParams: PageParams): void {
  appStore.set(customerAtom, { toPage, toPageParams });
}

/** Hands back the remembered target once and forgets it, so a later login does not jump there again. */
export function takeRememberedTarget(): { toPage: string; toPageParams: PageParams } {
  const { toPage, toPageParams } = appStore.get(customerAtom);
  appStore.set(customerAtom, { toPage: '', toPageParams: {} });
  return { toPage, toPageParams };
}
