import { currentRoute, requireLogin } from '@/core/navigation';
import { type SignedInUser, userAtom } from '@/state/customer';
import { useAtomValue } from 'jotai';
import { useEffect, useRef } from 'react';

/** The signed-in user; a guest who opened the page directly is sent to login and comes back after. */
export function useSignedInUser(): SignedInUser | null {
  const user = useAtomValue(userAtom);
  // Checked when the page opens only: signing out from the page itself leads elsewhere, not to login.
  const guestAtOpen = useRef(!user?.token).current;
  useEffect(() => {
    if (guestAtOpen) requireLogin(currentRoute());
  }, [guestAtOpen]);
  return user?.token ? user : null;
}
