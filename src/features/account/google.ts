import { post } from '@/core/request';
import { type SignedInUser, signIn } from '@/state/customer';
import { accountPlatform } from './platform';

export const GOOGLE_CLIENT_ID: string = LENSMATE_GOOGLE_CLIENT_ID;
export const GOOGLE_SCRIPT_URL = 'https://accounts.google.com/gsi/client';
export const GOOGLE_NOT_CONFIGURED_NOTE =
  'Google sign-in is not set up for this shop yet. Please sign in with your email.';
export const GOOGLE_WEB_ONLY_NOTE = 'Google sign-in is available in the web version of the shop.';
export const GOOGLE_LOAD_FAILED = 'Google sign-in could not be loaded. Please sign in with your email.';

/** Why the Google button is hidden here, or '' when it can be shown. */
export function googleUnavailableReason(
  clientId: string = GOOGLE_CLIENT_ID,
  webSignIn: boolean = accountPlatform.googleWebSignIn,
): string {
  if (!clientId) return GOOGLE_NOT_CONFIGURED_NOTE;
  if (!webSignIn) return GOOGLE_WEB_ONLY_NOTE;
  return '';
}

/** Exchanges a Google ID token (the credential of Google Identity Services) for a shop login. */
export async function loginWithGoogle(idToken: string): Promise<SignedInUser> {
  const user = await post('/api/google/google_login', { id_token: idToken });
  signIn(user);
  return user;
}

interface GoogleIdentity {
  accounts: {
    id: {
      initialize(options: { client_id: string; callback: (answer: { credential: string }) => void }): void;
      renderButton(element: HTMLElement, options: Record<string, string | number>): void;
    };
  };
}

let loading: Promise<GoogleIdentity> | null = null;

/** Loads Google Identity Services once per page load. */
export function loadGoogleIdentity(): Promise<GoogleIdentity> {
  const existing = (window as unknown as { google?: GoogleIdentity }).google;
  if (existing?.accounts?.id) return Promise.resolve(existing);
  loading ??= new Promise<GoogleIdentity>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = GOOGLE_SCRIPT_URL;
    script.async = true;
    script.onload = () => {
      const google = (window as unknown as { google?: GoogleIdentity }).google;
      if (google?.accounts?.id) resolve(google);
      else reject(new Error(GOOGLE_LOAD_FAILED));
    };
    script.onerror = () => {
      loading = null;
      reject(new Error(GOOGLE_LOAD_FAILED));
    };
    document.head.appendChild(script);
  });
  return loading;
}
