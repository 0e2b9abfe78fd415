import { imageUrl } from '@/core/request';
import { failureMessage } from '@/features/goods/api';
import { Image, Input, Text, View } from '@tarojs/components';
import Taro from '@tarojs/taro';
import { type Dispatch, type SetStateAction, useState } from 'react';
import { uploadPrescriptionPhoto } from './api';
import {
  EYE_FIELDS,
  type EyeField,
  type EyeKey,
  type FormErrors,
  PRISM_BASES,
  type PrescriptionForm,
  emptyForm,
} from './prescription-form';

export const PHOTO_FAILED = 'The photo could not be uploaded.';

const FIELD_LABELS: Record<EyeField, string> = { sph: 'SPH', cyl: 'CYL', axis: 'AXIS', add: 'ADD', prism: 'Prism' };
const EYES: readonly { key: EyeKey; label: string }[] = [
  { key: 'od', label: 'Right eye (OD)' },
  { key: 'os', label: 'Left eye (OS)' },
];

/** The state of a prescription form: its values, the errors shown beside fields, and the photo upload. */
export function usePrescriptionForm(initial: () => PrescriptionForm = emptyForm) {
  const [form, setForm] = useState<PrescriptionForm>(initial);
  const [errors, setErrors] = useState<FormErrors>({});
  const [uploading, setUploading] = useState(false);
  return { form, setForm, errors, setErrors, uploading, setUploading };
}

export type PrescriptionFormState = ReturnType<typeof usePrescriptionForm>;

/**
 * The fields of a prescription (name, both eyes, PD, a photo of the paper one), as the product flow and the saved
 * list both show them. A failed photo upload is handed to `onFailure`.
 */
export function PrescriptionFields({
  state,
  onFailure,
}: {
  state: PrescriptionFormState;
  onFailure: Dispatch<SetStateAction<string>>;
}) {
  const { form, setForm, errors, setErrors, uploading, setUploading } = state;
  const setFailure = onFailure;
  const setEye = (eye: EyeKey, field: EyeField | 'base', value: string | null) => {
    setForm((previous) => ({ ...previous, [eye]: { ...previous[eye], [field]: value } }));
    setErrors((previous) => ({ ...previous, [`${eye}.${field}`]: '' }));
  };

  const setField = (field: 'name' | 'pd' | 'pdRight' | 'pdLeft', value: string, errorKey: string) => {
    setForm((previous) => ({ ...previous, [field]: value }));
    setErrors((previous) => ({ ...previous, [errorKey]: '' }));
  };

  /** One pupillary-distance input: the single PD, or the right or left one of a dual PD. */
  const pdField = (
    width: 'wide' | 'half',
    label: string,
    name: string,
    placeholder: string,
    field: 'pd' | 'pdRight' | 'pdLeft',
    errorKey: 'pd.value' | 'pd.right' | 'pd.left',
  ) => (
    <View className={`rx-field rx-field--${width}`}>
      <Text className="rx-label">{label}</Text>
      <Input
        className={`rx-input ${errors[errorKey] ? 'rx-input--error' : ''}`}
        name={name}
        type="text"
        placeholder={placeholder}
        value={form[field]}
        onInput={(event) => setField(field, event.detail.value, errorKey)}
      />
    </View>
  );

  const choosePhoto = () => {
    Taro.chooseImage({ count: 1, sizeType: ['compressed'] }).then(
      (chosen) => {
        setUploading(true);
        uploadPrescriptionPhoto(chosen.tempFilePaths[0]).then(
          (url) => {
            setUploading(false);
            setForm((previous) => ({ ...previous, imageUrl: url }));
          },
          (reason: unknown) => {
            setUploading(false);
            setFailure(reason instanceof Error ? reason.message : failureMessage(reason, PHOTO_FAILED));
          },
        );
      },
      () => undefined,
    );
  };

  return (
    <View className="rx-card">
      <View className="rx-field rx-field--wide">
        <Text className="rx-label">Name</Text>
        <Input
          className={`rx-input ${errors.name ? 'rx-input--error' : ''}`}
          name="name"
          value={form.name}
          maxlength={60}
          onInput={(event) => setField('name', event.detail.value, 'name')}
        />
        {errors.name && <Text className="rx-error">{errors.name}</Text>}
      </View>
      {EYES.map((eye) => {
        const eyeErrors = [...EYE_FIELDS, 'base' as const]
          .map((field) => ({ field, message: errors[`${eye.key}.${field}`] }))
          .filter((entry) => entry.message);
        return (
          <View className="rx-eye" key={eye.key}>
            <Text className="rx-eye__title">{eye.label}</Text>
            <View className="rx-row">
              {EYE_FIELDS.map((field) => (
                <View className="rx-field" key={field}>
                  <Text className="rx-label">{FIELD_LABELS[field]}</Text>
                  <Input
                    className={`rx-input ${errors[`${eye.key}.${field}`] ? 'rx-input--error' : ''}`}
                    name={`${eye.key}.${field}`}
                    type="text"
                    placeholder={field === 'sph' ? '0.00' : '—'}
                    value={form[eye.key][field]}
                    onInput={(event) => setEye(eye.key, field, event.detail.value)}
                  />
                </View>
              ))}
            </View>
            <View className="rx-bases">
              <Text className="rx-label">Prism base</Text>
              {PRISM_BASES.map((base) => (
                <Text
                  key={base}
                  className={`rx-base ${form[eye.key].base === base ? 'rx-base--active' : ''}`}
                  onClick={() => setEye(eye.key, 'base', form[eye.key].base === base ? null : base)}
                >
                  {base}
                </Text>
              ))}
            </View>
            {eyeErrors.map((entry) => (
              <Text className="rx-error" key={entry.field}>
                {entry.field === 'base' ? 'Prism base' : FIELD_LABELS[entry.field]} {entry.message}
              </Text>
            ))}
          </View>
        );
      })}
      <View className="rx-eye">
        <Text className="rx-eye__title">Pupillary distance (PD)</Text>
        <View className="rx-bases">
          {(['single', 'dual'] as const).map((kind) => (
            <Text
              key={kind}
              className={`rx-base rx-base--wide ${form.pdKind === kind ? 'rx-base--active' : ''}`}
              onClick={() => setForm((previous) => ({ ...previous, pdKind: kind }))}
            >
              {kind === 'single' ? 'One number' : 'Two numbers'}
            </Text>
          ))}
        </View>
        {form.pdKind === 'single' ? (
          <View className="rx-row">{pdField('wide', 'PD (mm)', 'pd', '63', 'pd', 'pd.value')}</View>
        ) : (
          <View className="rx-row">
            {pdField('half', 'Right (mm)', 'pd.right', '31.5', 'pdRight', 'pd.right')}
            {pdField('half', 'Left (mm)', 'pd.left', '31.5', 'pdLeft', 'pd.left')}
          </View>
        )}
        {(['pd.value', 'pd.right', 'pd.left', 'pd'] as const)
          .filter((key) => errors[key])
          .map((key) => (
            <Text className="rx-error" key={key}>
              {key === 'pd.right' ? 'Right PD' : key === 'pd.left' ? 'Left PD' : 'PD'} {errors[key]}
            </Text>
          ))}
      </View>
      <View className="rx-eye">
        <Text className="rx-eye__title">Photo of your prescription (optional)</Text>
        <View className="rx-photo">
          {form.imageUrl && <Image className="rx-photo__image" src={imageUrl(form.imageUrl)} mode="aspectFill" />}
          <Text className="rx-photo__button" onClick={choosePhoto}>
            {uploading ? 'Uploading…' : form.imageUrl ? 'Replace photo' : 'Upload a photo'}
          </Text>
        </View>
      </View>
    </View>
  );
}
