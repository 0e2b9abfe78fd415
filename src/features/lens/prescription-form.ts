import { formatPrice } from '@/utils/format';
import type { EyeRx, Prescription, PrescriptionInput, PrismBase } from '../../../types/api';

export const PRISM_BASES: readonly PrismBase[] = ['BU', 'BD', 'BI', 'BO'];
export const EYE_FIELDS = ['sph', 'cyl', 'axis', 'add', 'prism'] as const;
export type EyeField = (typeof EYE_FIELDS)[number];
export type EyeKey = 'od' | 'os';

export const NOT_A_NUMBER = 'must be a number';
export const REQUIRED = 'is required';
export const ADD_REQUIRED = 'is required for these lenses';

export type EyeForm = Record<EyeField, string> & { base: PrismBase | null };

export interface PrescriptionForm {
  name: string;
  od: EyeForm;
  os: EyeForm;
  pdKind: 'single' | 'dual';
  pd: string;
  pdRight: string;
  pdLeft: string;
  imageUrl: string;
}

/** Field errors keyed like the server's field paths: `name`, `od.sph`, `os.base`, `pd.value`, `pd.right`. */
export type FormErrors = Record<string, string>;

const emptyEye = (): EyeForm => ({ sph: '', cyl: '', axis: '', add: '', prism: '', base: null });

export function emptyForm(): PrescriptionForm {
  return {
    name: 'My prescription',
    od: emptyEye(),
    os: emptyEye(),
    pdKind: 'single',
    pd: '',
    pdRight: '',
    pdLeft: '',
    imageUrl: '',
  };
}

/** '' is no value; '+1.25', '-2', '0.5' are numbers; anything else is an error. */
function numberOf(text: string): number | null | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(trimmed)) return undefined;
  return Number(trimmed);
}

function readEye(eye: EyeForm, key: EyeKey, errors: FormErrors, needsAdd: boolean): EyeRx {
  const values = {} as Record<EyeField, number | null>;
  for (const field of EYE_FIELDS) {
    const value = numberOf(eye[field]);
    if (value === undefined) errors[`${key}.${field}`] = NOT_A_NUMBER;
    values[field] = value ?? null;
  }
  if (values.sph === null && !errors[`${key}.sph`]) errors[`${key}.sph`] = REQUIRED;
  if (needsAdd && values.add === null && !errors[`${key}.add`]) errors[`${key}.add`] = ADD_REQUIRED;
  return {
    sph: values.sph ?? 0,
    cyl: values.cyl,
    axis: values.axis,
    add: values.add,
    prism: values.prism,
    base: eye.base,
  };
}

/**
 * The prescription to send, or the errors a shopper can fix before sending. Only the form of each number is
 * checked here; the optical ranges and rules are the server's, and its message lands next to its field.
 */
export function readForm(
  form: PrescriptionForm,
  needsAdd: boolean,
): { input: PrescriptionInput } | { errors: FormErrors } {
  const errors: FormErrors = {};
  if (form.name.trim() === '') errors.name = REQUIRED;
  const od = readEye(form.od, 'od', errors, needsAdd);
  const os = readEye(form.os, 'os', errors, needsAdd);
  let pd: PrescriptionInput['pd'] = { kind: 'single', value: 0 };
  if (form.pdKind === 'single') {
    const value = numberOf(form.pd);
    if (value === undefined) errors['pd.value'] = NOT_A_NUMBER;
    else if (value === null) errors['pd.value'] = REQUIRED;
    else pd = { kind: 'single', value };
  } else {
    const right = numberOf(form.pdRight);
    const left = numberOf(form.pdLeft);
    if (right === undefined || right === null) errors['pd.right'] = right === null ? REQUIRED : NOT_A_NUMBER;
    if (left === undefined || left === null) errors['pd.left'] = left === null ? REQUIRED : NOT_A_NUMBER;
    if (typeof right === 'number' && typeof left === 'number') pd = { kind: 'dual', right, left };
  }
  if (Object.keys(errors).length > 0) return { errors };
  return { input: { name: form.name.trim(), od, os, pd, image_url: form.imageUrl || null } };
}

/** A 400 answer names its field first (`od.sph: must be from -20 to +20`); this splits it for the form. */
export function serverFieldError(msg: string): { field: string; message: string } {
  const match = /^([\w.]+): (.+)$/.exec(msg);
  return match ? { field: match[1], message: match[2] } : { field: '', message: msg };
}

function signed(value: number): string {
  return `${value > 0 ? '+' : ''}${formatPrice(value)}`;
}

function describeEye(eye: EyeRx): string {
  const parts = [`SPH ${signed(eye.sph)}`];
  if (eye.cyl !== null && eye.cyl !== 0) parts.push(`CYL ${signed(eye.cyl)} × ${eye.axis ?? ''}`);
  if (eye.add !== null) parts.push(`ADD ${signed(eye.add)}`);
  if (eye.prism !== null) parts.push(`Prism ${eye.prism} ${eye.base ?? ''}`);
  return parts.join(' · ');
}

/** One line per eye and the PD, for the saved-prescription cards. */
export function describePrescription(rx: Pick<Prescription, 'od' | 'os' | 'pd'>): string[] {
  const pd = rx.pd.kind === 'single' ? `PD ${rx.pd.value}` : `PD R ${rx.pd.right} / L ${rx.pd.left}`;
  return [`R: ${describeEye(rx.od)}`, `L: ${describeEye(rx.os)}`, pd];
}

export function hasAddValue(rx: Pick<Prescription, 'od' | 'os'>): boolean {
  return rx.od.add !== null || rx.os.add !== null;
}

function textOf(value: number | null): string {
  return value === null ? '' : String(value);
}

/** A saved prescription as the form shows it, for editing. */
export function formOf(rx: Pick<Prescription, 'name' | 'od' | 'os' | 'pd' | 'image_url'>): PrescriptionForm {
  const eye = (value: EyeRx): EyeForm => ({
    sph: String(value.sph),
    cyl: textOf(value.cyl),
    axis: textOf(value.axis),
    add: textOf(value.add),
    prism: textOf(value.prism),
    base: value.base,
  });
  return {
    name: rx.name,
    od: eye(rx.od),
    os: eye(rx.os),
    pdKind: rx.pd.kind,
    pd: rx.pd.kind === 'single' ? String(rx.pd.value) : '',
    pdRight: rx.pd.kind === 'dual' ? String(rx.pd.right) : '',
    pdLeft: rx.pd.kind === 'dual' ? String(rx.pd.left) : '',
    imageUrl: rx.image_url ?? '',
  };
}
