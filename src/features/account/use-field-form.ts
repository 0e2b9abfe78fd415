import { useWaiting } from '@/core/use-network';
import { useState } from 'react';
import { fieldFailure } from './auth';

/**
 * A form of text fields with an error next to each field, a failure of the whole form and a busy flag: what the
 * password and profile forms share. A field's error clears as soon as it is typed in.
 */
export function useFieldForm<F extends { [K in keyof F]: string }>(initial: F) {
  type Errors = Partial<Record<keyof F, string>>;
  const [form, setForm] = useState<F>(initial);
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useWaiting();

  const change = (field: keyof F) => (value: string) => {
    setForm((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  /**
   * Shows `found` (the form's own check); when there is none, runs `work` with the busy flag. A server failure
   * naming a field of `fields` (server name → form field) is shown next to that field, any other under the form.
   */
  const submit = async (
    found: Errors,
    work: () => Promise<void>,
    fallback: string,
    fields: Record<string, keyof F> = {},
  ): Promise<void> => {
    setErrors(found);
    setFailure('');
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      await work();
    } catch (reason) {
      const { field, message } = fieldFailure(reason, fallback);
      const own = fields[field];
      if (own) setErrors({ [own]: message } as Errors);
      else setFailure(message);
    } finally {
      setBusy(false);
    }
  };

  return { form, setForm, errors, failure, setFailure, busy, setBusy, change, submit };
}
