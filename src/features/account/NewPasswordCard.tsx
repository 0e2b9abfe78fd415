import { ActionButton, Field, FormCard, FormFailure } from '@/ui/form/Field';
import type { ReactNode } from 'react';

/**
 * The card of the change-password and find-password forms: what proves it is you (`children`: the current
 * password or the mailed code), the new password and its confirmation, the form's failure and the button.
 */
export function NewPasswordCard(props: {
  children: ReactNode;
  form: { password: string; confirm: string };
  errors: { password?: string; confirm?: string };
  failure: string;
  busy: boolean;
  confirmPlaceholder: string;
  buttonName: string;
  onChange: (field: 'password' | 'confirm') => (value: string) => void;
  onSubmit: () => void;
  footer?: ReactNode;
}) {
  return (
    <FormCard>
      {props.children}
      <Field
        label="New password"
        name="password"
        password
        maxlength={200}
        value={props.form.password}
        placeholder="At least 8 characters"
        hint="8 to 128 characters, with a letter and a digit"
        error={props.errors.password}
        onChange={props.onChange('password')}
      />
      <Field
        label="Confirm new password"
        name="confirm"
        password
        maxlength={200}
        value={props.form.confirm}
        placeholder={props.confirmPlaceholder}
        error={props.errors.confirm}
        onChange={props.onChange('confirm')}
        onConfirm={props.onSubmit}
      />
      <FormFailure message={props.failure} />
      <ActionButton label="Change password" name={props.buttonName} busy={props.busy} onClick={props.onSubmit} />
      {props.footer}
    </FormCard>
  );
}
