import { goHome, requireLogin } from '@/core/navigation';
import { imageUrl } from '@/core/request';
import { NAMED_TARGETS } from '@/core/routes';
import { useRouteRecord } from '@/core/use-route-record';
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

export default function MyPrescriptionListPage() {
  useRouteRecord();
  const [list, setList] = useState<Prescription[]>([]);
  const [state, setState] = useState<LoadState>('loading');
  const [error, setError] = useState('');
  const [actionError, setActionError] = useState('');

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

  return (
    <View className="shop-page">
      {actionError && <Text className="shop-alert">{actionError}</Text>}
      {list.length === 0 && (
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
            <View className="shop-button shop-button--danger shop-button--small" onClick={() => remove(prescription)}>
              <Text>Delete</Text>
            </View>
          </View>
        </View>
      ))}
    </View>
  );
}
