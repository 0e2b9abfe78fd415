import { Text, View } from '@tarojs/components';
import { useEffect, useState } from 'react';
import { loginFailureMessage } from './auth';
import { GOOGLE_CLIENT_ID, googleUnavailableReason, loadGoogleIdentity, loginWithGoogle } from './google';
import './google-sign-in.css';

const BUTTON_ID = 'google-sign-in-button';

/**
 * The Google button under the email form. Without a configured client id (or outside the web build) it is
 * replaced by a note saying why, so the shopper is not left looking for it.
 */
export function GoogleSignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const reason = googleUnavailableReason();
  const [failure, setFailure] = useState('');

  useEffect(() => {
    if (reason) return;
    let active = true;
    loadGoogleIdentity().then(
      (google) => {
        const element = document.getElementById(BUTTON_ID);
        if (!active || !element) return;
        google.accounts.id.initialize({
          client_id: GOOGLE_CLIENT_ID,
          callback: ({ credential }) => {
            loginWithGoogle(credential).then(onSignedIn, (error: unknown) => setFailure(loginFailureMessage(error)));
          },
        });
        google.accounts.id.renderButton(element, { theme: 'outline', size: 'large', shape: 'pill', width: 300 });
      },
      (error: Error) => active && setFailure(error.message),
    );
    return () => {
      active = false;
    };
  }, [reason, onSignedIn]);

  return (
    <View className="google-sign-in">
      <View className="google-sign-in__divider">
        <Text className="google-sign-in__or">or</Text>
      </View>
      {reason ? (
        <Text className="google-sign-in__note">{reason}</Text>
      ) : (
        <View id={BUTTON_ID} className="google-sign-in__button" />
      )}
      {failure && <Text className="google-sign-in__failure">{failure}</Text>}
    </View>
  );
}
