/** Accounts: sign-up and sign-in, passwords, profiles, addresses and prescriptions. */
import { z } from 'zod';
import { PRISM_BASES } from '../constants';
import { bodyId, requiredText } from './common';

export const email = z
  .string({ required_error: 'is required' })
  .trim()
  .toLowerCase()
  .email('must be an e-mail address')
  .max(254);

/** 8 to 128 characters with a letter and a digit. */
export const newPassword = z
  .string({ required_error: 'is required' })
  .min(8, 'must have at least 8 characters')
  .max(128, 'must have at most 128 characters')
  .refine((value) => /\p{L}/u.test(value) && /\d/.test(value), 'must contain a letter and a digit');

const password = z.string({ required_error: 'is required' }).min(1, 'is required').max(128);

export const user = z.object({
  user_id: z.number(),
  email: z.string(),
  nickname: z.string(),
  avatar: z.string(),
  bio: z.string(),
  is_admin: z.boolean(),
  created_at: z.number(),
});

export const loginResult = user.extend({ token: z.string() });

export const userProfile = z.object({
  user_id: z.number(),
  nickname: z.string(),
  avatar: z.string(),
  bio: z.string(),
  is_admin: z.boolean(),
});

export const registerRequest = z.object({
  email,
  password: newPassword,
  nickname: z.string().trim().min(1).max(40).optional(),
});
export const loginRequest = z.object({ email, password });
export const emailRequest = z.object({ email });
export const googleLoginRequest = z.object({
  id_token: z.string({ required_error: 'is required' }).min(1, 'is required'),
});
/**
 * Sign in with WeChat (mini-program): a wx.login code, exchanged by the server through code2Session. An openid
 * already linked signs in to its account; a new one is linked to an existing account when its e-mail and password
 * are given, gets a new account with `create`, and otherwise is answered `unlinked` so the shopper can choose.
 */
export const wechatLoginRequest = z.object({
  code: z
    .string({ required_error: 'is required' })
    .min(1, 'is required')
    .max(128, 'is not a wx.login code')
    .regex(/^[\w-]+$/, 'is not a wx.login code'),
  create: z.boolean().optional(),
  email: email.optional(),
  password: password.optional(),
});
export const wechatLogin = z.object({
  /** signed_in: the openid's account; linked: the openid now belongs to the account given; created: a new one. */
  outcome: z.enum(['signed_in', 'linked', 'created', 'unlinked']),
  login: loginResult.nullable(),
});
export const changePasswordRequest = z.object({ old_password: password, new_password: newPassword });
export const changePasswordWithCodeRequest = z.object({
  email,
  /** The 6-digit code mailed by forget_password (valid 15 minutes, 5 attempts). */
  code: z.string({ required_error: 'is required' }).regex(/^\d{6}$/, 'must be 6 digits'),
  new_password: newPassword,
});
/** Absent user_id: the signed-in user. */
export const userShowRequest = z.object({ user_id: z.coerce.number().int().positive().optional() });

export const existsResult = z.object({ exists: z.boolean() });
export const sentResult = z.object({ sent: z.literal(true) });
export const loggedOutResult = z.object({ logged_out: z.literal(true) });
export const changedResult = z.object({ changed: z.literal(true) });

/* ---- addresses */

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

export const addressInput = z.object({
  /** Present to update an existing address. */
  address_id: bodyId.optional(),
  first_name: requiredText(60),
  last_name: requiredText(60),
  phone: z
    .string({ required_error: 'is required' })
    .trim()
    .regex(/^\+?[\d\s()-]{6,20}$/, 'must be a phone number'),
  country_code: z
    .string({ required_error: 'is required' })
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, 'must be a 2-letter country code'),
  province: z.string().trim().max(60).default(''),
  city: requiredText(60),
  street: requiredText(120),
  street2: z.string().trim().max(120).default(''),
  zip: z
    .string({ required_error: 'is required' })
    .trim()
    .regex(/^[A-Za-z0-9 -]{2,12}$/, 'must be a postal code'),
  is_default: z.boolean().default(false),
});

export const addressIdRequest = z.object({ address_id: z.number({ required_error: 'is required' }).int().positive() });

/* ---- prescriptions */

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

const onStep = (step: number) => (value: number) => Math.abs(Math.round(value / step) * step - value) < 1e-9;

function diopters(min: number, max: number) {
  return z
    .number({ invalid_type_error: 'must be a number', required_error: 'is required' })
    .min(min, `must be from ${min} to +${max}`)
    .max(max, `must be from ${min} to +${max}`)
    .refine(onStep(0.25), 'must be in steps of 0.25');
}

const eyeInput = z
  .object({
    sph: diopters(-20, 20),
    cyl: diopters(-6, 6).nullable().default(null),
    axis: z
      .number({ invalid_type_error: 'must be a number' })
      .int('must be a whole number of degrees')
      .min(1, 'must be from 1 to 180')
      .max(180, 'must be from 1 to 180')
      .nullable()
      .default(null),
    add: z
      .number({ invalid_type_error: 'must be a number' })
      .min(0.75, 'must be from +0.75 to +3.50')
      .max(3.5, 'must be from +0.75 to +3.50')
      .refine(onStep(0.25), 'must be in steps of 0.25')
      .nullable()
      .default(null),
    prism: z
      .number({ invalid_type_error: 'must be a number' })
      .min(0.5, 'must be from 0.5 to 10')
      .max(10, 'must be from 0.5 to 10')
      .refine(onStep(0.25), 'must be in steps of 0.25')
      .nullable()
      .default(null),
    base: z
      .enum(PRISM_BASES, { errorMap: () => ({ message: 'must be BU, BD, BI or BO' }) })
      .nullable()
      .default(null),
  })
  .superRefine((value, issue) => {
    const hasCyl = value.cyl !== null && value.cyl !== 0;
    if (hasCyl && value.axis === null) {
      issue.addIssue({ code: 'custom', path: ['axis'], message: 'is required when CYL is set' });
    }
    if (!hasCyl && value.axis !== null) {
      issue.addIssue({ code: 'custom', path: ['axis'], message: 'must be empty when there is no CYL' });
    }
    if (value.prism !== null && value.base === null) {
      issue.addIssue({ code: 'custom', path: ['base'], message: 'is required when a prism is set' });
    }
    if (value.prism === null && value.base !== null) {
      issue.addIssue({ code: 'custom', path: ['prism'], message: 'is required when a base direction is set' });
    }
  });

const pdInput = z.discriminatedUnion(
  'kind',
  [
    z.object({
      kind: z.literal('single'),
      value: z
        .number({ required_error: 'is required' })
        .min(50, 'must be from 50 to 80 mm')
        .max(80, 'must be from 50 to 80 mm')
        .refine(onStep(0.5), 'must be in steps of 0.5'),
    }),
    z.object({
      kind: z.literal('dual'),
      right: z
        .number({ required_error: 'is required' })
        .min(25, 'must be from 25 to 40 mm')
        .max(40, 'must be from 25 to 40 mm')
        .refine(onStep(0.5), 'must be in steps of 0.5'),
      left: z
        .number({ required_error: 'is required' })
        .min(25, 'must be from 25 to 40 mm')
        .max(40, 'must be from 25 to 40 mm')
        .refine(onStep(0.5), 'must be in steps of 0.5'),
    }),
  ],
  { errorMap: () => ({ message: 'must be {kind: "single", value} or {kind: "dual", right, left}' }) },
);

/** A prescription to save: with prescription_id, an update of the user's own. */
export const prescriptionInput = z.object({
  prescription_id: bodyId.optional(),
  name: requiredText(60),
  od: eyeInput,
  os: eyeInput,
  pd: pdInput,
  /** A photo of the paper prescription, uploaded with save_to MYPRESCRIPTION. */
  image_url: z.string().max(500).nullable().optional(),
  note: z.string().max(500).optional(),
});

export const prescriptionIdRequest = z.object({
  prescription_id: z.number({ required_error: 'is required' }).int().positive(),
});
