import { openPage, requireLogin } from '@/core/navigation';
import { useWaiting } from '@/core/use-network';
import { useRouteRecord } from '@/core/use-route-record';
import { failureMessage } from '@/features/goods/api';
import { FrameSummary, Steps, useFrame } from '@/features/lens/FrameSummary';
import { PrescriptionFields, usePrescriptionForm } from '@/features/lens/PrescriptionFields';
import { fetchLensTypes, fetchMyPrescriptions, savePrescription } from '@/features/lens/api';
import { LENS_PAGE } from '@/features/lens/flow';
import { describePrescription, hasAddValue, readForm, serverFieldError } from '@/features/lens/prescription-form';
import { currentToken } from '@/state/customer';
import { lensAtom } from '@/state/lens';
import { StateView } from '@/ui/shop/StateView';
import { Text, View } from '@tarojs/components';
import { useRouter } from '@tarojs/taro';
import { useSetAtom } from 'jotai';
import { useEffect, useState } from 'react';
import type { LensType, Prescription } from '../../../../types/api';
import '@/features/lens/lens.css';
import './prescription.css';

export const SAVE_FAILED = 'The prescription could not be saved.';
export { PHOTO_FAILED } from '@/features/lens/PrescriptionFields';
export const LOAD_FAILED = 'Could not load the lens types';
export const needsAddMessage = (typeName: string) => `${typeName} lenses need the ADD value in the prescription`;

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
  const formState = usePrescriptionForm();
  const { form, setErrors } = formState;
  const [failure, setFailure] = useState('');
  const [sending, setSending] = useWaiting();
  const [signedIn] = useState(() => currentToken() !== '');
  const [loadFailure, setLoadFailure] = useState('');
  const [attempt, setAttempt] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` changes when the shopper taps Try again
  useEffect(() => {
    if (!signedIn) {
      requireLogin();
      return;
    }
    setLoadFailure('');
    // Without its lens type the form cannot tell whether ADD is needed: a failure is shown, not guessed past.
    fetchLensTypes().then(
      (types) => setLensType(types.find((type) => type.lens_type_id === lensTypeId) ?? null),
      (reason: unknown) => setLoadFailure(failureMessage(reason, LOAD_FAILED)),
    );
    fetchMyPrescriptions().then(setSaved, () => setSaved([]));
  }, [signedIn, lensTypeId, attempt]);

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

  if (!signedIn) return null;
  if (loadFailure) {
    return (
      <View className="lens-page">
        <StateView state="error" error={loadFailure} onRetry={() => setAttempt((times) => times + 1)} />
      </View>
    );
  }

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
        <PrescriptionFields state={formState} onFailure={setFailure} />
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
