import { StateView } from '@/ui/shop/StateView';
import { Text, View } from '@tarojs/components';
import { useRouter } from '@tarojs/taro';
import { useEffect, useState } from 'react';
import { AdminDenied } from './AdminDenied';
import { type AdminAccess, failureText, useAdminAccess } from './use-admin';
import './admin.css';

/**
 * What the glasses and article editors share: who may edit, the item named by the `id` query (absent: a new
 * one) loaded into a form, the field errors, the failure of the whole form and the busy flag of a running call.
 */
export function useAdminEditor<F, E extends object>(options: {
  empty: F;
  load: (id: number) => Promise<F>;
  loadFailure: string;
  saveFailure: string;
}) {
  const access = useAdminAccess();
  const id = Number(useRouter().params.id ?? 0) || 0;
  const [form, setForm] = useState<F | null>(id ? null : options.empty);
  const [errors, setErrors] = useState<E>({} as E);
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);
  const { load, loadFailure } = options;

  // biome-ignore lint/correctness/useExhaustiveDependencies: loads again only for another item or user
  useEffect(() => {
    if (access !== 'admin' || !id) return;
    load(id).then(setForm, (error: unknown) => setFailure(failureText(error, loadFailure)));
  }, [access, id]);

  /** Runs a save, listing change or delete with the busy flag; its failure is shown under the form. */
  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setFailure('');
    try {
      await work();
    } catch (error) {
      setFailure(failureText(error, options.saveFailure));
    } finally {
      setBusy(false);
    }
  };

  return { access, form, setForm, errors, setErrors, failure, setFailure, busy, run };
}

/** Stands in for an editor that cannot show yet: nothing for a guest (sent to login), a refusal, or loading. */
export function EditorGate(props: { access: AdminAccess; failure: string; loading: string }) {
  if (props.access === 'guest') return null;
  if (props.access === 'shopper') return <AdminDenied />;
  return (
    <View className="admin-page">
      {props.failure ? (
        <StateView state="error" error={props.failure} />
      ) : (
        <Text className="admin-state">{props.loading}</Text>
      )}
    </View>
  );
}

export interface Chip {
  key: number;
  label: string;
  on: boolean;
  /** A CSS colour drawn as a dot before the label. */
  swatch?: string;
}

/** A row of tappable chips (categories, filters, colours), the chosen ones filled. */
export function AdminChips(props: { chips: Chip[]; onTap: (key: number) => void }) {
  return (
    <View className="admin-chips">
      {props.chips.map((chip) => (
        <View
          key={chip.key}
          className={`admin-chip ${chip.on ? 'admin-chip--on' : ''}`}
          onClick={() => props.onTap(chip.key)}
        >
          {chip.swatch !== undefined && <View className="admin-chip__swatch" style={{ background: chip.swatch }} />}
          <Text>{chip.label}</Text>
        </View>
      ))}
    </View>
  );
}

/** Chips of the categories; tapping the chosen one again clears it. */
export function CategoryChips(props: {
  categories: { category_id: number; category_name: string }[];
  value: number | null;
  onChange: (categoryId: number | null) => void;
}) {
  return (
    <AdminChips
      chips={props.categories.map((category) => ({
        key: category.category_id,
        label: category.category_name,
        on: props.value === category.category_id,
      }))}
      onTap={(key) => props.onChange(props.value === key ? null : key)}
    />
  );
}
