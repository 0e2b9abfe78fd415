import { openPage, requireLogin } from '@/core/navigation';
import { imageUrl } from '@/core/request';
import { useRouteRecord } from '@/core/use-route-record';
import { failureMessage } from '@/features/goods/api';
import { FrameSummary, Steps, useFrame } from '@/features/lens/FrameSummary';
import { fetchLensTypes, fetchMyPrescriptions, savePrescription, uploadPrescriptionPhoto } from '@/features/lens/api';
import { LENS_PAGE } from '@/features/lens/flow';
import {
  EYE_FIELDS,
  type EyeField,
  type EyeKey,
  type FormErrors,
  PRISM_BASES,
  type PrescriptionForm,
  describePrescription,
  emptyForm,
  hasAddValue,
  readForm,
  serverFieldError,
} from '@/features/lens/prescription-form';
import { currentToken } from '@/state/customer';
import { lensAtom } from '@/state/lens';
import { Image, Input, Text, View } from '@tarojs/components';
import Taro, { useRouter } from '@tarojs/taro';
import { useSetAtom } from 'jotai';
import { useEffect, useState } from 'react';
import type { LensType, Prescription } from '../../../../types/api';
import '@/features/lens/lens.css';
import './prescription.css';

export const SAVE_FAILED = 'The prescription could not be saved.';
export const PHOTO_FAILED = 'The photo could not be uploaded.';
export const needsAddMessage = (typeName: string) => `${typeName} lenses need the ADD value in the prescription`;

const FIELD_LABELS: Record<EyeField, string> = { sph: 'SPH', cyl: 'CYL', axis: 'AXIS', add: 'ADD', prism: 'Prism' };
const EYES: readonly { key: EyeKey; label: string }[] = [
  { key: 'od', label: 'Right eye (OD)' },
  { key: 'os', label: 'Left eye (OS)' },
];

export default function PrescriptionPage() {
  useRouteRecord();
  const { params } = useRouter();
  const goodsId = Number(params.goods_id);
  const colorId = Number(params.color_id);
  const lensTypeId = Number(params.lens_type_id);
  const frame = useFrame(goodsId);
  const setLens = useSetAtom(lensAtom);
  const [lensType, setLensType] = useState<LensType | null>(null);
  const [saved, setSaved] = useState<Prescription[]>([]);
  const [form, setForm] = useState<PrescriptionForm>(emptyForm);
  const [errors, setErrors] = useState<FormErrors>({});
  const [failure, setFailure] = useState('');
  const [sending, setSending] = useState(false);
  const [uploading, setUploading] = useState(false);
  const [signedIn] = useState(() => currentToken() !== '');

  useEffect(() => {
    if (!signedIn) {
      requireLogin();
      return;
    }
    fetchLensTypes().then(
      (types) => setLensType(types.find((type) => type.lens_type_id === lensTypeId) ?? null),
      () => undefined,
    );
    fetchMyPrescriptions().then(setSaved, () => setSaved([]));
  }, [signedIn, lensTypeId]);

  const needsAdd = lensType?.needs_add ?? false;

  const goOn = (prescription: Prescription) => {
    setLens({ prescription: prescription as unknown as Record<string, unknown> });
    void openPage(LENS_PAGE, {
      goods_id: String(goodsId),
      color_id: String(colorId),
      lens_type_id: String(lensTypeId),
      prescription_id: String(prescription.prescription_id),
    });
  };

  const chooseSaved = (prescription: Prescription) => {
    if (needsAdd && !hasAddValue(prescription)) {
      setFailure(needsAddMessage(lensType?.name ?? 'These'));
      return;
    }
    setFailure('');
    goOn(prescription);
  };

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

  const submit = () => {
    if (sending) return;
    setFailure('');
    const read = readForm(form, needsAdd);
    if ('errors' in read) {
      setErrors(read.errors);
      return;
    }
    setErrors({});
    setSending(true);
    savePrescription(read.input).then(
      (prescription) => {
        setSending(false);
        goOn(prescription);
      },
      (reason: unknown) => {
        setSending(false);
        const { field, message } = serverFieldError(failureMessage(reason, SAVE_FAILED));
        if (field && field !== 'body') setErrors({ [field]: message });
        else setFailure(message);
      },
    );
  };

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

  if (!signedIn) return null;

  return (
    <View className="lens-page">
      <Steps current={2} />
      <FrameSummary goods={frame} colorId={colorId} />
      {saved.length > 0 && (
        <View className="lens-section">
          <Text className="lens-section__title">Use a saved prescription</Text>
          {saved.map((prescription) => (
            <View className="lens-option" key={prescription.prescription_id} onClick={() => chooseSaved(prescription)}>
              <View className="lens-option__text">
                <Text className="lens-option__name">{prescription.name}</Text>
                {describePrescription(prescription).map((line) => (
                  <Text className="lens-option__desc" key={line}>
                    {line}
                  </Text>
                ))}
              </View>
              <Text className="lens-option__price">Use</Text>
            </View>
          ))}
        </View>
      )}
      <View className="lens-section">
        <Text className="lens-section__title">
          {saved.length > 0 ? 'Or enter a new one' : 'Enter your prescription'}
        </Text>
        {needsAdd && (
          <Text className="lens-section__hint">
            {lensType?.name} lenses need the ADD (reading addition) for each eye.
          </Text>
        )}
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
      </View>
      {failure && <Text className="lens-error">{failure}</Text>}
      <View className="lens-bar">
        <View className="lens-bar__total">
          <Text className="lens-bar__label">{lensType?.name ?? 'Lenses'}</Text>
        </View>
        <Text className={`lens-bar__button ${sending ? 'lens-bar__button--disabled' : ''}`} onClick={submit}>
          {sending ? 'Saving…' : 'Save and continue'}
        </Text>
      </View>
    </View>
  );
}
