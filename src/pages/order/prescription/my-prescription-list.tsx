import { goHome, requireLogin } from '@/core/navigation';
import { imageUrl } from '@/core/request';
import { NAMED_TARGETS } from '@/core/routes';
import { useWaiting } from '@/core/use-network';
import { useRouteRecord } from '@/core/use-route-record';
import { failureMessage as goodsFailureMessage } from '@/features/goods/api';
import { PrescriptionFields, usePrescriptionForm } from '@/features/lens/PrescriptionFields';
import { savePrescription } from '@/features/lens/api';
import { emptyForm, formOf, readForm, serverFieldError } from '@/features/lens/prescription-form';
import { failureMessage } from '@/features/order/api-error';
import { usePageLoad } from '@/features/order/use-page-load';
import {
  DELETE_PRESCRIPTION_QUESTION,
  type Prescription,
  deletePrescription,
  describeEye,
  describePd,
  fetchPrescriptions,
} from '@/features/prescription/api';
import { EmptyView, type LoadState, StateView } from '@/ui/shop/StateView';
import { Image, Text, View } from '@tarojs/components';
import Taro from '@tarojs/taro';
import { useCallback, useEffect, useState } from 'react';
import '@/ui/shop/shop.css';
import './my-prescription-list.css';

export const ADD_PRESCRIPTION = 'Add a prescription';
export const SAVE_PRESCRIPTION = 'Save prescription';
export const SAVE_FAILED = 'The prescription could not be saved.';

/** Adds a prescription, or edits one: the product flow's fields, checks and photo upload. */
function PrescriptionEditor({
  editing,
  onSaved,
  onCancel,
}: {
  editing: Prescription | null;
  onSaved: (saved: Prescription) => void;
  onCancel: () => void;
}) {
  const formState = usePrescriptionForm(() => (editing ? formOf(editing) : emptyForm()));
  const [failure, setFailure] = useState('');
  const [sending, setSending] = useWaiting();

  const save = () => {
    if (sending || formState.uploading) return;
    setFailure('');
    // ADD is the lens type's requirement, checked when the prescription is used for lenses that need it.
    const read = readForm(formState.form, false);
    if ('errors' in read) {
      formState.setErrors(read.errors);
      return;
    }
    formState.setErrors({});
    setSending(true);
    const input = editing ? { ...read.input, prescription_id: editing.prescription_id } : read.input;
    savePrescription(input).then(
      (saved) => {
        setSending(false);
        onSaved(saved);
      },
      (reason: unknown) => {
        setSending(false);
        const { field, message } = serverFieldError(goodsFailureMessage(reason, SAVE_FAILED));
        if (field && field !== 'body') formState.setErrors({ [field]: message });
        else setFailure(message);
      },
    );
  };

  return (
    <View className="shop-card rx-editor">
      <Text className="rx-card__name">{editing ? `Edit ${editing.name}` : 'New prescription'}</Text>
      <PrescriptionFields state={formState} onFailure={setFailure} />
      {failure && <Text className="shop-alert">{failure}</Text>}
      <View className="rx-card__actions">
        <View className="shop-button shop-button--ghost shop-button--small" onClick={onCancel}>
          <Text>Cancel</Text>
        </View>
        <View className={`shop-button shop-button--small ${sending ? 'shop-button--disabled' : ''}`} onClick={save}>
          <Text>{sending ? 'Saving…' : SAVE_PRESCRIPTION}</Text>
        </View>
      </View>
    </View>
  );
}

export default function MyPrescriptionListPage() {
  useRouteRecord();
  const [list, setList] = useState<Prescription[]>([]);
  const [state, setState] = useState<LoadState>('loading');
  const [error, setError] = useState('');
  const [actionError, setActionError] = useState('');
  /** The editor: closed, a new prescription, or the saved one being edited. */
  const [editor, setEditor] = useState<{ editing: Prescription | null } | null>(null);

  useEffect(() => {
    requireLogin({ path: NAMED_TARGETS.myPrescriptionList, query: {} });
  }, []);

  const load = useCallback(() => {
    fetchPrescriptions().then(
      (found) => {
        setList(found);
        setState('ready');
      },
      (reason: unknown) => {
        setError(failureMessage(reason));
        setState('error');
      },
    );
  }, []);

  usePageLoad(load);

  const remove = (prescription: Prescription) => {
    Taro.showModal({ title: 'Delete prescription', content: DELETE_PRESCRIPTION_QUESTION }).then((answer) => {
      if (!answer.confirm) return;
      setActionError('');
      deletePrescription(prescription.prescription_id).then(
        () => setList((shown) => shown.filter((item) => item.prescription_id !== prescription.prescription_id)),
        (reason: unknown) => setActionError(failureMessage(reason)),
      );
    });
  };

  if (state !== 'ready') {
    return (
      <View className="shop-page">
        <StateView state={state} error={error} onRetry={load} />
      </View>
    );
  }

  const saved = (prescription: Prescription) => {
    setEditor(null);
    setList((shown) => {
      const others = shown.filter((item) => item.prescription_id !== prescription.prescription_id);
      return editor?.editing
        ? shown.map((item) => (item.prescription_id === prescription.prescription_id ? prescription : item))
        : [prescription, ...others];
    });
  };

  return (
    <View className="shop-page">
      {actionError && <Text className="shop-alert">{actionError}</Text>}
      {editor ? (
        <PrescriptionEditor
          key={editor.editing?.prescription_id ?? 'new'}
          editing={editor.editing}
          onSaved={saved}
          onCancel={() => setEditor(null)}
        />
      ) : (
        <View className="shop-button rx-add" onClick={() => setEditor({ editing: null })}>
          <Text>{ADD_PRESCRIPTION}</Text>
        </View>
      )}
      {list.length === 0 && !editor && (
        <EmptyView
          title="No saved prescriptions"
          hint="Prescriptions you enter while choosing lenses are kept here for your next pair."
          action="Browse glasses"
          onAction={() => void goHome()}
        />
      )}
      {list.map((prescription) => (
        <View className="shop-card rx-card" key={prescription.prescription_id}>
          <View className="rx-card__head">
            <Text className="rx-card__name">{prescription.name}</Text>
            <Text className="shop-muted">{new Date(prescription.created_at).toLocaleDateString()}</Text>
          </View>
          <View className="rx-card__body">
            <View className="rx-card__eyes">
              <Text className="rx-card__eye">
                <Text className="rx-card__side">OD (right)</Text> {describeEye(prescription.od)}
              </Text>
              <Text className="rx-card__eye">
                <Text className="rx-card__side">OS (left)</Text> {describeEye(prescription.os)}
              </Text>
              <Text className="rx-card__eye">{describePd(prescription.pd)}</Text>
              {prescription.note && <Text className="shop-muted">{prescription.note}</Text>}
            </View>
            {prescription.image_url && (
              <Image className="rx-card__photo" src={imageUrl(prescription.image_url)} mode="aspectFill" />
            )}
          </View>
          <View className="rx-card__actions">
            <View
              className="shop-button shop-button--ghost shop-button--small"
              onClick={() => setEditor({ editing: prescription })}
            >
              <Text>Edit</Text>
            </View>
            <View className="shop-button shop-button--danger shop-button--small" onClick={() => remove(prescription)}>
              <Text>Delete</Text>
            </View>
          </View>
        </View>
      ))}
    </View>
  );
}
