import { goBack } from '@/core/navigation';
import { ActionButton, Field, FormCard, FormFailure } from '@/ui/form/Field';
import { Text, View } from '@tarojs/components';
import Taro from '@tarojs/taro';
import { useState } from 'react';
import {
  type ChangePasswordErrors,
  type ChangePasswordForm as Form,
  changePassword,
  fieldFailure,
  validateChangePassword,
} from './auth';
import '@/ui/form/form.css';

export const PASSWORD_CHANGED = 'Password changed';
const CHANGE_FAILED = 'The password could not be changed, please try again';

/** Current password, new password and its confirmation; other devices are signed out by the server. */
export function ChangePasswordForm() {
  const [form, setForm] = useState<Form>({ old: '', password: '', confirm: '' });
  const [errors, setErrors] = useState<ChangePasswordErrors>({});
  const [failure, setFailure] = useState('');
  const [sending, setSending] = useState(false);

  const change = (field: keyof Form) => (value: string) => {
    setForm((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const submit = async () => {
    const found = validateChangePassword(form);
    setErrors(found);
    setFailure('');
    if (Object.keys(found).length > 0) return;
    setSending(true);
    try {
      await changePassword(form);
      setForm({ old: '', password: '', confirm: '' });
      void Taro.showToast({ title: PASSWORD_CHANGED, icon: 'success', duration: 1500 });
      setTimeout(() => void goBack(), 800);
    } catch (reason) {
      const { field, message } = fieldFailure(reason, CHANGE_FAILED);
      if (field === 'old_password') setErrors({ old: message });
      else if (field === 'new_password') setErrors({ password: message });
      else setFailure(message);
    } finally {
      setSending(false);
    }
  };

  return (
    <View className="form-page">
      <Text className="form-page__intro">After the change, your other devices are signed out.</Text>
      <FormCard>
        <Field
          label="Current password"
          name="old"
          password
          maxlength={200}
          value={form.old}
          placeholder="Your current password"
          error={errors.old}
          onChange={change('old')}
        />
        <Field
          label="New password"
          name="password"
          password
          maxlength={200}
          value={form.password}
          placeholder="At least 8 characters"
          hint="8 to 128 characters, with a letter and a digit"
          error={errors.password}
          onChange={change('password')}
        />
        <Field
          label="Confirm new password"
          name="confirm"
          password
          maxlength={200}
          value={form.confirm}
          placeholder="Type the new password again"
          error={errors.confirm}
          onChange={change('confirm')}
          onConfirm={() => void submit()}
        />
        <FormFailure message={failure} />
        <ActionButton label="Change password" name="change-password" busy={sending} onClick={() => void submit()} />
      </FormCard>
    </View>
  );
}
