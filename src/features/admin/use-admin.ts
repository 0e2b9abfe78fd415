import { currentRoute, requireLogin } from '@/core/navigation';
import { userAtom } from '@/state/customer';
import { useAtomValue } from 'jotai';
import { useEffect, useRef } from 'react';

export type AdminAccess = 'admin' | 'shopper' | 'guest';

/** Who is looking at an admin page: a guest is sent to login (and comes back), a shopper is turned away. */
export function useAdminAccess(): AdminAccess {
  const user = useAtomValue(userAtom);
  const access: AdminAccess = !user?.token ? 'guest' : user.is_admin ? 'admin' : 'shopper';
  const guestAtOpen = useRef(access === 'guest').current;
  useEffect(() => {
    if (guestAtOpen) requireLogin(currentRoute());
  }, [guestAtOpen]);
  return access;
}

/** A failed call's message for the admin: the server's msg (it names the field), else the fallback. */
export function failureText(failure: unknown, fallback: string): string {
  if (typeof failure === 'object' && failure !== null && 'msg' in failure) {
    const { msg } = failure as { msg: unknown };
    if (typeof msg === 'string' && msg !== '') return msg;
  }
  if (failure instanceof Error && failure.message) return failure.message;
  return fallback;
}
