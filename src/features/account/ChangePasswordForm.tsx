import { goBack } from '@/core/navigation';
import { Field } from '@/ui/form/Field';
import { Text, View } from '@tarojs/components';
import Taro from '@tarojs/taro';
import { NewPasswordCard } from './NewPasswordCard';
import { type ChangePasswordForm as Form, changePassword, validateChangePassword } from './auth';
import { useFieldForm } from './use-field-form';
import '@/ui/form/form.css';

export const PASSWORD_CHANGED = 'Password changed';
const CHANGE_FAILED = 'The password could not be changed, please try again';
const EMPTY: Form = { old: '', password: '', confirm: '' };

/** Current password, new password and its confirmation; other devices are signed out by the server. */
export function ChangePasswordForm() {
  const { form, setForm, errors, failure, busy, change, submit } = useFieldForm<Form>(EMPTY);

  const send = () =>
    submit(
      validateChangePassword(form),
      async () => {
        await changePassword(form);
        setForm(EMPTY);
        void Taro.showToast({ title: PASSWORD_CHANGED, icon: 'success', duration: 1500 });
        setTimeout(() => void goBack(), 800);
      },
      CHANGE_FAILED,
      { old_password: 'old', new_password: 'password' },
    );

  return (
    <View className="form-page">
      <Text className="form-page__intro">After the change, your other devices are signed out.</Text>
      <NewPasswordCard
        form={form}
        errors={errors}
        failure={failure}
        busy={busy}
        confirmPlaceholder="Type the new password again"
        buttonName="change-password"
        onChange={change}
        onSubmit={() => void send()}
      >
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
      </NewPasswordCard>
    </View>
  );
}
