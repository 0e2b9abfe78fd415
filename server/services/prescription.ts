import type { z } from 'zod';
import type { prescriptionInput } from '../../types/schemas/account';

export type PrescriptionData = Pick<z.infer<typeof prescriptionInput>, 'od' | 'os' | 'pd'>;

export function hasPrism(data: PrescriptionData): boolean {
  return data.od.prism !== null || data.os.prism !== null;
}

export function hasAdd(data: PrescriptionData): boolean {
  return data.od.add !== null || data.os.add !== null;
}
