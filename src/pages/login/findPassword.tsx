import { LOGIN_PAGE } from '@/core/routes';
import { useRouteRecord } from '@/core/use-route-record';
import { NewPasswordCard } from '@/features/account/NewPasswordCard';
import {
  PASSWORD_RESET_DONE,
  RESET_FAILED,
  type ResetForm,
  emailError,
  fieldFailure,
  forgetResetRequest,
  resetPassword,
  sendResetCode,
  validateReset,
} from '@/features/account/auth';
import { useFieldForm } from '@/features/account/use-field-form';
import { customerAtom } from '@/state/customer';
import { ActionButton, Field, FormCard, FormFailure } from '@/ui/form/Field';
import { Text, View } from '@tarojs/components';
import Taro from '@tarojs/taro';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import '@/ui/form/form.css';

/**
 * Two steps: the email gets a code (then customer.resetPassword and resetPasswordEmail say which account is
 * being recovered, for the rest of the session), then the code and the new password change it.
 */
export default function FindPassword() {
  useRouteRecord();
  const customer = useAtomValue(customerAtom);
  const [email, setEmail] = useState(customer.resetPasswordEmail);
  const [emailProblem, setEmailProblem] = useState('');
  const { form, errors, failure, setFailure, busy, setBusy, change, submit } = useFieldForm<ResetForm>({
    code: '',
    password: '',
    confirm: '',
  });

  const sendCode = async () => {
    const problem = emailError(email);
    setEmailProblem(problem);
    setFailure('');
    if (problem) return;
    setBusy(true);
    try {
      await sendResetCode(email);
      void Taro.showToast({ title: 'Code sent', icon: 'success', duration: 1500 });
    } catch (reason) {
      const { field, message } = fieldFailure(reason, RESET_FAILED);
      if (field === 'email') setEmailProblem(message);
      else setFailure(message);
    } finally {
      setBusy(false);
    }
  };

  const reset = () =>
    submit(
      validateReset(form),
      async () => {
        await resetPassword(customer.resetPasswordEmail, form);
        void Taro.showToast({ title: PASSWORD_RESET_DONE, icon: 'none', duration: 2000 });
        void Taro.redirectTo({ url: LOGIN_PAGE });
      },
      RESET_FAILED,
      { code: 'code', new_password: 'password' },
    );

  if (!customer.resetPassword) {
    return (
      <View className="form-page">
        <Text className="form-page__title">Forgot your password?</Text>
        <Text className="form-page__intro">Enter the email of your account and we will send you a 6-digit code.</Text>
        <FormCard>
          <Field
            label="Email"
            name="email"
            value={email}
            placeholder="you@example.com"
            error={emailProblem}
            onChange={(value) => {
              setEmail(value);
              setEmailProblem('');
            }}
            onConfirm={() => void sendCode()}
          />
          <FormFailure message={failure} />
          <ActionButton label="Send code" name="send-code" busy={busy} onClick={() => void sendCode()} />
        </FormCard>
      </View>
    );
  }

  return (
    <View className="form-page">
      <Text className="form-page__title">Set a new password</Text>
      <Text className="form-page__intro">
        We sent a code to {customer.resetPasswordEmail}. It is valid for 15 minutes.
      </Text>
      <NewPasswordCard
        form={form}
        errors={errors}
        failure={failure}
        busy={busy}
        confirmPlaceholder="Type the password again"
        buttonName="reset"
        onChange={change}
        onSubmit={() => void reset()}
        footer={
          <View className="link-row">
            <Text onClick={() => void sendCode()}>Send the code again</Text>
            <Text onClick={forgetResetRequest}>Use another email</Text>
          </View>
        }
      >
        <Field
          label="Verification code"
          name="code"
          type="number"
          maxlength={6}
          value={form.code}
          placeholder="6 digits"
          error={errors.code}
          onChange={change('code')}
        />
      </NewPasswordCard>
    </View>
  );
}
