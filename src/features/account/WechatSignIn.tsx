import { useWaiting } from '@/core/use-network';
import { Button, Input, Text, View } from '@tarojs/components';
import { useState } from 'react';
import { emailError, loginFailureMessage } from './auth';
import { accountPlatform } from './platform';
import { type WechatChoice, loginWithWechat } from './wechat';
import './wechat-sign-in.css';

export const WECHAT_UNLINKED_NOTE =
  'This WeChat is not linked to a Lensmate account yet. Link the account you have, or create a new one.';
export const WECHAT_LOGIN_FAILED = 'WeChat sign-in failed, please try again';

/**
 * "Sign in with WeChat" on the login page of the mini-program (nothing elsewhere). A WeChat the shop does not know
 * yet is linked to an existing account once its password is given, or gets a new account.
 */
export function WechatSignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const [choosing, setChoosing] = useState(false);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [failure, setFailure] = useState('');
  const [sending, setSending] = useWaiting();
  if (!accountPlatform.wechatSignIn) return null;

  const send = (choice: WechatChoice) => {
    if (sending) return;
    setFailure('');
    setSending(true);
    loginWithWechat(choice).then(
      (outcome) => {
        setSending(false);
        if (outcome === 'unlinked') setChoosing(true);
        else onSignedIn();
      },
      (reason: unknown) => {
        setSending(false);
        setFailure(loginFailureMessage(reason, WECHAT_LOGIN_FAILED));
      },
    );
  };

  const link = () => {
    const problem = emailError(email) || (password === '' ? 'Please enter your password' : '');
    if (problem) {
      setFailure(problem);
      return;
    }
    send({ email: email.trim(), password });
  };

  return (
    <View className="wechat-sign-in">
      {!choosing ? (
        <Button className="wechat-sign-in__button" disabled={sending || undefined} onClick={() => send({})}>
          Sign in with WeChat
        </Button>
      ) : (
        <View className="wechat-sign-in__choice">
          <Text className="wechat-sign-in__note">{WECHAT_UNLINKED_NOTE}</Text>
          <Input
            className="wechat-sign-in__input"
            type="text"
            placeholder="Your account's e-mail"
            value={email}
            onInput={(event) => setEmail(event.detail.value)}
          />
          <Input
            className="wechat-sign-in__input"
            password
            placeholder="Your account's password"
            value={password}
            onInput={(event) => setPassword(event.detail.value)}
            onConfirm={link}
          />
          <Button className="wechat-sign-in__button" disabled={sending || undefined} onClick={link}>
            Link WeChat and sign in
          </Button>
          <Button
            className="wechat-sign-in__button wechat-sign-in__button--plain"
            disabled={sending || undefined}
            onClick={() => send({ create: true })}
          >
            Create a new account with WeChat
          </Button>
        </View>
      )}
      {failure && <Text className="wechat-sign-in__failure">{failure}</Text>}
    </View>
  );
}
