import { get, post, upload } from '@/core/request';
import type {
  EyeRx,
  LensCoating,
  LensColor,
  LensThickness,
  LensType,
  Prescription,
  PrescriptionInput,
  PrismPrice,
} from '../../../types/api';

export function fetchLensTypes(): Promise<LensType[]> {
  return post('/api/goods/get_lens_type');
}

export function fetchThickness(): Promise<LensThickness[]> {
  return post('/api/goods/get_lens_thickness');
}

export function fetchLensColors(): Promise<LensColor[]> {
  return post('/api/goods/get_lens_color');
}

export function fetchCoatings(): Promise<LensCoating[]> {
  return get('/api/goods/lens_coating');
}

export function fetchPrismPrice(): Promise<PrismPrice> {
  return get('/api/goods/prism_price');
}

export function fetchMyPrescriptions(): Promise<Prescription[]> {
  return get('/api/user/get_my_prescription');
}

export function savePrescription(input: PrescriptionInput & { prescription_id?: number }): Promise<Prescription> {
  return post('/api/order/submit_my_prescription', input);
}

/** Uploads a photo of a paper prescription; resolves with its URL. */
export async function uploadPrescriptionPhoto(filePath: string): Promise<string> {
  const uploaded = await upload('/api/goods/save_goods_media_files', filePath, 'MYPRESCRIPTION');
  return uploaded.url;
}

export function hasPrism(rx: { od: EyeRx; os: EyeRx }): boolean {
  return rx.od.prism !== null || rx.os.prism !== null;
}
