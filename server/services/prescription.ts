import { z } from 'zod';

const onStep = (step: number) => (value: number) => Math.abs(Math.round(value / step) * step - value) < 1e-9;

function diopters(min: number, max: number) {
  return z
    .number({ invalid_type_error: 'must be a number', required_error: 'is required' })
    .min(min, `must be from ${min} to +${max}`)
    .max(max, `must be from ${min} to +${max}`)
    .refine(onStep(0.25), 'must be in steps of 0.25');
}

const eye = z
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
      .enum(['BU', 'BD', 'BI', 'BO'], { errorMap: () => ({ message: 'must be BU, BD, BI or BO' }) })
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

const pd = z.discriminatedUnion(
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

export const prescriptionInput = z.object({
  prescription_id: z.number().int().positive().optional(),
  name: z.string({ required_error: 'is required' }).trim().min(1, 'is required').max(60),
  od: eye,
  os: eye,
  pd,
  image_url: z.string().max(500).nullable().optional(),
  note: z.string().max(500).optional(),
});

export type PrescriptionData = Pick<z.infer<typeof prescriptionInput>, 'od' | 'os' | 'pd'>;

export function hasPrism(data: PrescriptionData): boolean {
  return data.od.prism !== null || data.os.prism !== null;
}

export function hasAdd(data: PrescriptionData): boolean {
  return data.od.add !== null || data.os.add !== null;
}
