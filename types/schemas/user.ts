/** Users' own records that orders carry: addresses and prescriptions (as answers show them). */
import { z } from 'zod';
import { PRISM_BASES } from '../constants';

export const address = z.object({
  address_id: z.number(),
  first_name: z.string(),
  last_name: z.string(),
  phone: z.string(),
  country_code: z.string(),
  province: z.string(),
  city: z.string(),
  street: z.string(),
  street2: z.string(),
  zip: z.string(),
  is_default: z.boolean(),
});

/**
 * One eye. SPH −20.00…+20.00, CYL −6.00…+6.00, ADD +0.75…+3.50 (all in steps of 0.25);
 * AXIS 1…180 and required exactly when CYL is not zero; prism 0.5…10 in steps of 0.25 with its base.
 */
export const eyeRx = z.object({
  sph: z.number(),
  cyl: z.number().nullable(),
  axis: z.number().nullable(),
  add: z.number().nullable(),
  prism: z.number().nullable(),
  base: z.enum(PRISM_BASES).nullable(),
});

/** Single PD 50…80 mm, or dual (monocular) 25…40 mm per eye, in steps of 0.5. */
export const pupillaryDistance = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('single'), value: z.number() }),
  z.object({ kind: z.literal('dual'), right: z.number(), left: z.number() }),
]);

export const prescription = z.object({
  prescription_id: z.number(),
  name: z.string(),
  /** Right eye (oculus dexter). */
  od: eyeRx,
  /** Left eye (oculus sinister). */
  os: eyeRx,
  pd: pupillaryDistance,
  /** A photo of the paper prescription (a signed URL in answers to its owner and to staff). */
  image_url: z.string().nullable(),
  note: z.string(),
  created_at: z.number(),
});
