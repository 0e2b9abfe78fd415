import type { Prescription } from '../../types/api';
import type { ParsedRequestOf } from '../../types/contract';
import type { AppContext } from '../context';
import { ApiError } from '../http';
import { readablePrescription } from './orders';
import { toPrescription } from './records';
import { UPLOADS_PREFIX, prescriptionFolder, unsignedPath, uploadUrlReader } from './uploads';

export const PHOTO_NOT_YOURS = 'image_url: must be a photo you uploaded for your prescription (save_to MYPRESCRIPTION)';

/**
 * The photo a prescription may cite: one the user uploaded (under their own folder, signed or not), or the one it
 * already has. Anything else could point at another user's photo and get it signed in this user's answers.
 */
function ownPhoto(userId: number, given: string | null | undefined, current: string | null): string | null {
  if (!given) return null;
  const path = unsignedPath(given);
  const own = new RegExp(`^${UPLOADS_PREFIX}/${prescriptionFolder(userId)}/[\\w-]+\\.\\w+$`);
  if (path === current || own.test(path)) return path;
  throw new ApiError(400, PHOTO_NOT_YOURS);
}

/** The user's prescriptions, newest first, their photos signed for now. */
export async function listPrescriptions(ctx: AppContext, userId: number): Promise<Prescription[]> {
  const rows = await ctx.db
    .selectFrom('prescriptions')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .execute();
  const readUrl = uploadUrlReader(ctx.config, ctx.now);
  return rows.map((row) => readablePrescription(toPrescription(row), readUrl));
}

export async function deletePrescription(ctx: AppContext, userId: number, prescriptionId: number): Promise<void> {
  const result = await ctx.db
    .deleteFrom('prescriptions')
    .where('id', '=', prescriptionId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw new ApiError(404, 'prescription_id: no such prescription');
}

/** submit_my_prescription: a new prescription, or a change of one of the user's own (prescription_id). */
export async function savePrescription(
  ctx: AppContext,
  userId: number,
  input: ParsedRequestOf<'POST /api/order/submit_my_prescription'>,
): Promise<Prescription> {
  const readUrl = uploadUrlReader(ctx.config, ctx.now);
  const current =
    input.prescription_id === undefined
      ? undefined
      : await ctx.db
          .selectFrom('prescriptions')
          .select('image_url')
          .where('id', '=', input.prescription_id)
          .where('user_id', '=', userId)
          .executeTakeFirst();
  if (input.prescription_id !== undefined && !current) {
    throw new ApiError(404, 'prescription_id: no such prescription');
  }
  const data = JSON.stringify({ od: input.od, os: input.os, pd: input.pd });
  const imageUrl = ownPhoto(userId, input.image_url, current?.image_url ?? null);
  const fields = { name: input.name, data, image_url: imageUrl, note: input.note ?? '' };
  if (input.prescription_id !== undefined) {
    const row = await ctx.db
      .updateTable('prescriptions')
      .set(fields)
      .where('id', '=', input.prescription_id)
      .where('user_id', '=', userId)
      .returningAll()
      .executeTakeFirst();
    if (!row) throw new ApiError(404, 'prescription_id: no such prescription');
    return readablePrescription(toPrescription(row), readUrl);
  }
  const row = await ctx.db
    .insertInto('prescriptions')
    .values({ ...fields, user_id: userId, created_at: ctx.now() })
    .returningAll()
    .executeTakeFirstOrThrow();
  return readablePrescription(toPrescription(row), readUrl);
}
