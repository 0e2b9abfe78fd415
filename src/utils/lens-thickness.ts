/**
 * Estimated lens thickness from the optics of a spherical surface (the estimate opticians give a shopper, not a
 * surfacing calculation): the power P of the strongest meridian and the index n give the surface radius
 * r = (n − 1) / |P| (metres, here in millimetres); over the half-width h the lens must cover, the surface rises by
 * the sagitta s = r − √(r² − h²). A minus lens keeps a minimum centre and gains s at the edge; a plus lens keeps a
 * minimum edge and gains s at the centre.
 *
 * h is half the effective diameter: half the frame's lens width plus the decentration, which moves the optical
 * centre from the middle of the lens to the pupil: (frame PD − shopper PD) / 2 per eye, the frame PD being the lens
 * width plus the bridge.
 */

/** The thinnest centre a minus lens is made with (mm). */
export const MIN_CENTRE_MM = 1.5;
/** The thinnest edge a plus lens is made with (mm). */
export const MIN_EDGE_MM = 1;

export interface FrameSize {
  /** The width of one lens (mm). */
  lensWidth: number;
  /** The bridge between the lenses (mm). */
  bridge: number;
}

export interface Thickness {
  /** Thickness at the thickest edge (mm). */
  edge: number;
  /** Thickness at the optical centre (mm). */
  centre: number;
  /** The sagitta over the effective half-width (mm). */
  sagitta: number;
}

/** The frame's PD: the distance between the centres of its lenses (mm). */
export function framePd(frame: FrameSize): number {
  return frame.lensWidth + frame.bridge;
}

/** Decentration per eye (mm): how far each optical centre sits from the middle of its lens. */
export function decentration(frame: FrameSize, shopperPd: number): number {
  return Math.abs(framePd(frame) - shopperPd) / 2;
}

/** The effective diameter (mm): the lens width with the decentration on both sides. */
export function effectiveDiameter(frame: FrameSize, shopperPd: number): number {
  return frame.lensWidth + 2 * decentration(frame, shopperPd);
}

/** The surface radius (mm) for a power (dioptres) and an index; Infinity for a plano lens. */
export function surfaceRadius(power: number, index: number): number {
  if (power === 0) return Number.POSITIVE_INFINITY;
  return ((index - 1) / Math.abs(power)) * 1000;
}

/** The sagitta (mm) of a surface of radius r over a half-width h; a half-width past the radius is a hemisphere. */
export function sagitta(radius: number, halfWidth: number): number {
  if (!Number.isFinite(radius)) return 0;
  const h = Math.min(halfWidth, radius);
  return radius - Math.sqrt(radius * radius - h * h);
}

/** Edge and centre thickness (mm) of a lens of `power` and `index` in this frame for this shopper's PD. */
export function lensThickness(power: number, index: number, frame: FrameSize, shopperPd: number): Thickness {
  const s = sagitta(surfaceRadius(power, index), effectiveDiameter(frame, shopperPd) / 2);
  if (power < 0) return { edge: MIN_CENTRE_MM + s, centre: MIN_CENTRE_MM, sagitta: s };
  return { edge: MIN_EDGE_MM, centre: MIN_EDGE_MM + s, sagitta: s };
}

/** A thickness in millimetres as shown: one decimal. */
export function formatMm(value: number): string {
  return `${value.toFixed(1)} mm`;
}
