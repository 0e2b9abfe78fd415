import { atomWithStorage } from 'jotai/utils';
import { taroStorage } from './taro-storage';

/** A prescription as entered or chosen for the current purchase; its fields belong to the lens flow. */
export type PrescriptionDraft = Record<string, unknown>;

export interface LensState {
  prescription: PrescriptionDraft | null;
}

/** Persisted so a reload in the middle of the lens flow keeps the prescription. */
export const lensAtom = atomWithStorage<LensState>('lens', { prescription: null }, taroStorage<LensState>(), {
  getOnInit: true,
});
