import { LOGIN_PAGE } from '@/core/routes';
import { useWaiting } from '@/core/use-network';
import { useRouteRecord } from '@/core/use-route-record';
import {
  EMAIL_TAKEN,
  REGISTER_FAILED,
  type RegisterErrors,
  type RegisterForm,
  accountExists,
  continueAfterSignIn,
  emailError,
  fieldFailure,
  register,
  validateRegister,
} from '@/features/account/auth';
import { ActionButton, Field, FormCard, FormFailure } from '@/ui/form/Field';
import { Text, View } from '@tarojs/components';
import Taro from '@tarojs/taro';
import { useState } from 'react';
import '@/ui/form/form.css';

const EMPTY: RegisterForm = { email: '', nickname: '', password: '', confirm: '' };

export default function Regist() {
  useRouteRecord();
  const [form, setForm] = useState<RegisterForm>(EMPTY);
  const [errors, setErrors] = useState<RegisterErrors>({});
  const [failure, setFailure] = useState('');
  const [sending, setSending] = useWaiting();

  const change = (field: keyof RegisterForm) => (value: string) => {
    setForm((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const checkEmail = () => {
    if (form.email.trim() === '' || emailError(form.email)) return;
    accountExists(form.email).then(
      (exists) => exists && setErrors((current) => ({ ...current, email: EMAIL_TAKEN })),
      () => undefined,
    );
  };

  const submit = async () => {
    const found = validateRegister(form);
    setErrors(found);
    setFailure('');
    setSending(true);
    try {
      // The address is checked even when other fields are wrong, so every problem shows at once.
      if (!found.email && (await accountExists(form.email))) found.email = EMAIL_TAKEN;
      setErrors({ ...found });
      if (Object.keys(found).length > 0) return;
      await register(form);
      void Taro.showToast({ title: 'Welcome to Lensmate', icon: 'success', duration: 1500 });
      void continueAfterSignIn();
    } catch (reason) {
      const { field, message } = fieldFailure(reason, REGISTER_FAILED);
      if (field === 'email' || field === 'password' || field === 'nickname') setErrors({ [field]: message });
      else setFailure(message);
    } finally {
      setSending(false);
    }
  };

  return (
    <View className="form-page">
      <Text className="form-page__title">Create your account</Text>
      <Text className="form-page__intro">Save your prescriptions, track orders and check out faster.</Text>
      <FormCard>
        <Field
          label="Email"
          name="email"
          value={form.email}
          placeholder="you@example.com"
          error={errors.email}
          onChange={change('email')}
          onBlur={checkEmail}
        />
        <Field
          label="Nickname (optional)"
          name="nickname"
          value={form.nickname}
          placeholder="How others see you"
          error={errors.nickname}
          maxlength={60}
          onChange={change('nickname')}
        />
        <Field
          label="Password"
          name="password"
          password
          value={form.password}
          placeholder="At least 8 characters"
          hint="8 to 128 characters, with a letter and a digit"
          error={errors.password}
          maxlength={200}
          onChange={change('password')}
        />
        <Field
          label="Confirm password"
          name="confirm"
          password
          value={form.confirm}
          placeholder="Type the password again"
          error={errors.confirm}
          maxlength={200}
          onChange={change('confirm')}
          onConfirm={() => void submit()}
        />
        <FormFailure message={failure} />
        <ActionButton label="Create account" name="register" busy={sending} onClick={() => void submit()} />
        <View className="link-row">
          <Text>Already have an account?</Text>
          <Text onClick={() => void Taro.redirectTo({ url: LOGIN_PAGE })}>Sign in</Text>
        </View>
      </FormCard>
    </View>
  );
}
