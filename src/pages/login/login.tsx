import { returnAfterLogin } from '@/core/navigation';
import { useWaiting } from '@/core/use-network';
import { useRouteRecord } from '@/core/use-route-record';
import { GoogleSignIn } from '@/features/account/GoogleSignIn';
import { WechatSignIn } from '@/features/account/WechatSignIn';
import { type LoginErrors, login, loginFailureMessage, validateLogin } from '@/features/account/auth';
import { FIND_PASSWORD_PAGE, REGISTER_PAGE } from '@/features/account/profile';
import { Button, Input, Text, View } from '@tarojs/components';
import Taro from '@tarojs/taro';
import { useCallback, useState } from 'react';
import './login.css';

export default function Login() {
  useRouteRecord();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<LoginErrors>({});
  const [failure, setFailure] = useState('');
  const [sending, setSending] = useWaiting();
  const signedInElsewhere = useCallback(() => void returnAfterLogin(), []);

  const submit = () => {
    if (sending) return;
    const found = validateLogin({ email, password });
    setErrors(found);
    setFailure('');
    if (Object.keys(found).length > 0) return;
    setSending(true);
    login({ email, password }).then(
      () => {
        setSending(false);
        void returnAfterLogin();
      },
      (reason: unknown) => {
        setSending(false);
        setFailure(loginFailureMessage(reason));
      },
    );
  };

  return (
    <View className="login">
      <View className="login__hero">
        <Text className="login__title">Welcome back</Text>
        <Text className="login__subtitle">Sign in to see your orders, addresses and prescriptions.</Text>
      </View>
      <View className="login__card">
        <View className={`login__field ${errors.email ? 'login__field--error' : ''}`}>
          <Text className="login__label">Email</Text>
          <Input
            className="login__input"
            type="text"
            name="email"
            placeholder="you@example.com"
            value={email}
            onInput={(event) => {
              setEmail(event.detail.value);
              if (errors.email) setErrors({ ...errors, email: undefined });
            }}
          />
          {errors.email && <Text className="login__error">{errors.email}</Text>}
        </View>
        <View className={`login__field ${errors.password ? 'login__field--error' : ''}`}>
          <Text className="login__label">Password</Text>
          <Input
            className="login__input"
            password
            name="password"
            placeholder="Your password"
            value={password}
            onInput={(event) => {
              setPassword(event.detail.value);
              if (errors.password) setErrors({ ...errors, password: undefined });
            }}
            onConfirm={submit}
          />
          {errors.password && <Text className="login__error">{errors.password}</Text>}
        </View>
        {failure && <Text className="login__failure">{failure}</Text>}
        <Button
          className="login__submit"
          loading={sending || undefined}
          disabled={sending || undefined}
          onClick={submit}
        >
          Sign in
        </Button>
        <View className="login__links">
          <Text className="login__link" onClick={() => void Taro.navigateTo({ url: FIND_PASSWORD_PAGE })}>
            Forgot password?
          </Text>
          <Text className="login__link" onClick={() => void Taro.navigateTo({ url: REGISTER_PAGE })}>
            Create account
          </Text>
        </View>
        <WechatSignIn onSignedIn={signedInElsewhere} />
        <GoogleSignIn onSignedIn={signedInElsewhere} />
      </View>
    </View>
  );
}
