import { get, post } from '@/core/request';
import type { EyeRx, Prescription, PupillaryDistance } from '../../../types/api';

export type { Prescription };

export function fetchPrescriptions(): Promise<Prescription[]> {
  return get('/api/user/get_my_prescription');
}

export function deletePrescription(prescriptionId: number): Promise<{ deleted: true }> {
  return post('/api/user/delete_my_prescription', { prescription_id: prescriptionId });
}

function signed(value: number): string {
  return `${value > 0 ? '+' : ''}${value.toFixed(2)}`;
}

/** One eye in the optician's notation, e.g. 'SPH -2.25  CYL -0.50  AXIS 90  ADD +1.50  Prism 1.00 BU'. */
export function describeEye(eye: EyeRx): string {
  const parts = [`SPH ${signed(eye.sph)}`];
  if (eye.cyl !== null && eye.cyl !== 0) parts.push(`CYL ${signed(eye.cyl)}`);
  if (eye.axis !== null && eye.cyl !== null && eye.cyl !== 0) parts.push(`AXIS ${eye.axis}`);
  if (eye.add !== null) parts.push(`ADD ${signed(eye.add)}`);
  if (eye.prism !== null) parts.push(`Prism ${eye.prism.toFixed(2)}${eye.base ? ` ${eye.base}` : ''}`);
  return parts.join('  ');
}

export function describePd(pd: PupillaryDistance): string {
  return pd.kind === 'single' ? `PD ${pd.value}` : `PD R ${pd.right} / L ${pd.left}`;
}

export const DELETE_PRESCRIPTION_QUESTION = 'Do you want to delete this prescription?';
