import { formatPrice } from '@/utils/format';
import type { EyeRx, LensThickness } from '../../../types/api';

/** The strongest power in either meridian of either eye: SPH, and SPH + CYL. */
export function strongestPower(od: EyeRx, os: EyeRx): number {
  const powers = [od, os].flatMap((eye) => [eye.sph, eye.sph + (eye.cyl ?? 0)]);
  return powers.reduce((strongest, power) => (Math.abs(power) > Math.abs(strongest) ? power : strongest), 0);
}

/** The thinnest-needed index for a power: up to ±2.00 1.50, ±3.00 1.56, ±4.50 1.61, ±6.00 1.67, beyond 1.74. */
export function recommendedIndex(power: number): number {
  const strength = Math.abs(power);
  if (strength <= 2) return 1.5;
  if (strength <= 3) return 1.56;
  if (strength <= 4.5) return 1.61;
  if (strength <= 6) return 1.67;
  return 1.74;
}

function signed(power: number): string {
  return `${power > 0 ? '+' : ''}${formatPrice(power)}`;
}

/** The hint next to the lens index choice: the index the prescription needs, and a warning when the chosen one is lower. */
export function thicknessHint(od: EyeRx, os: EyeRx, chosen: LensThickness | undefined): string {
  const power = strongestPower(od, os);
  const recommended = recommendedIndex(power);
  const base = `Your strongest power is ${signed(power)}: we recommend index ${recommended.toFixed(2)} or higher.`;
  if (!chosen) return base;
  if (chosen.index < recommended) return `${base} ${chosen.index.toFixed(2)} lenses will look thick at the edges.`;
  return `${base} ${chosen.name} suits your prescription.`;
}
