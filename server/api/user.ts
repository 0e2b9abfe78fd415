import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../auth';
import type { AppContext } from '../context';
import { ApiError, body, ok } from '../http';
import { readablePrescription } from '../services/orders';
import { prescriptionInput } from '../services/prescription';
import { toAddress, toPrescription } from '../services/records';
import { UPLOADS_PREFIX, prescriptionFolder, unsignedPath, uploadUrlReader } from '../services/uploads';

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

const text = (max: number) => z.string({ required_error: 'is required' }).trim().min(1, 'is required').max(max);

const addressInput = z.object({
  address_id: z.number().int().positive().optional(),
  first_name: text(60),
  last_name: text(60),
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
  city: text(60),
  street: text(120),
  street2: z.string().trim().max(120).default(''),
  zip: z
    .string({ required_error: 'is required' })
    .trim()
    .regex(/^[A-Za-z0-9 -]{2,12}$/, 'must be a postal code'),
  is_default: z.boolean().default(false),
});

export function registerUserRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post('/api/user/get_user_address', async (request) => {
    const user = await requireUser(ctx, request);
    const rows = await ctx.db
      .selectFrom('addresses')
      .selectAll()
      .where('user_id', '=', user.id)
      .orderBy('is_default', 'desc')
      .orderBy('id')
      .execute();
    return ok(rows.map(toAddress));
  });

  app.post('/api/user/set_user_address', async (request) => {
    const user = await requireUser(ctx, request);
    const input = body(request, addressInput);
    const country = await ctx.db
      .selectFrom('countries')
      .select('code')
      .where('code', '=', input.country_code)
      .executeTakeFirst();
    if (!country) throw new ApiError(400, 'country_code: we do not ship to this country');
    const { address_id: addressId, is_default: isDefault, ...fields } = input;
    const saved = await ctx.db.transaction().execute(async (trx) => {
      const count = await trx
        .selectFrom('addresses')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', user.id)
        .executeTakeFirstOrThrow();
      const makeDefault = isDefault || Number(count.n) === 0;
      if (makeDefault)
        await trx.updateTable('addresses').set({ is_default: 0 }).where('user_id', '=', user.id).execute();
      if (addressId !== undefined) {
        const row = await trx
          .updateTable('addresses')
          .set({ ...fields, ...(makeDefault ? { is_default: 1 } : {}) })
          .where('id', '=', addressId)
          .where('user_id', '=', user.id)
          .returningAll()
          .executeTakeFirst();
        if (!row) throw new ApiError(404, 'address_id: no such address');
        return row;
      }
      return trx
        .insertInto('addresses')
        .values({ ...fields, user_id: user.id, is_default: makeDefault ? 1 : 0, created_at: ctx.now() })
        .returningAll()
        .executeTakeFirstOrThrow();
    });
    return ok(toAddress(saved));
  });

  app.post('/api/user/delete_user_address', async (request) => {
    const user = await requireUser(ctx, request);
    const input = body(request, z.object({ address_id: z.number({ required_error: 'is required' }).int().positive() }));
    const result = await ctx.db
      .deleteFrom('addresses')
      .where('id', '=', input.address_id)
      .where('user_id', '=', user.id)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw new ApiError(404, 'address_id: no such address');
    return ok({ deleted: true as const });
  });

  app.get('/api/user/get_my_prescription', async (request) => {
    const user = await requireUser(ctx, request);
    const rows = await ctx.db
      .selectFrom('prescriptions')
      .selectAll()
      .where('user_id', '=', user.id)
      .orderBy('id', 'desc')
      .execute();
    const readUrl = uploadUrlReader(ctx.config, ctx.now);
    return ok(rows.map((row) => readablePrescription(toPrescription(row), readUrl)));
  });

  app.post('/api/user/delete_my_prescription', async (request) => {
    const user = await requireUser(ctx, request);
    const input = body(
      request,
      z.object({ prescription_id: z.number({ required_error: 'is required' }).int().positive() }),
    );
    const result = await ctx.db
      .deleteFrom('prescriptions')
      .where('id', '=', input.prescription_id)
      .where('user_id', '=', user.id)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw new ApiError(404, 'prescription_id: no such prescription');
    return ok({ deleted: true as const });
  });

  app.post('/api/order/submit_my_prescription', async (request) => {
    const user = await requireUser(ctx, request);
    const input = body(request, prescriptionInput);
    const readUrl = uploadUrlReader(ctx.config, ctx.now);
    const current =
      input.prescription_id === undefined
        ? undefined
        : await ctx.db
            .selectFrom('prescriptions')
            .select('image_url')
            .where('id', '=', input.prescription_id)
            .where('user_id', '=', user.id)
            .executeTakeFirst();
    if (input.prescription_id !== undefined && !current) {
      throw new ApiError(404, 'prescription_id: no such prescription');
    }
    const data = JSON.stringify({ od: input.od, os: input.os, pd: input.pd });
    const imageUrl = ownPhoto(user.id, input.image_url, current?.image_url ?? null);
    const fields = { name: input.name, data, image_url: imageUrl, note: input.note ?? '' };
    if (input.prescription_id !== undefined) {
      const row = await ctx.db
        .updateTable('prescriptions')
        .set(fields)
        .where('id', '=', input.prescription_id)
        .where('user_id', '=', user.id)
        .returningAll()
        .executeTakeFirst();
      if (!row) throw new ApiError(404, 'prescription_id: no such prescription');
      return ok(readablePrescription(toPrescription(row), readUrl));
    }
    const row = await ctx.db
      .insertInto('prescriptions')
      .values({ ...fields, user_id: user.id, created_at: ctx.now() })
      .returningAll()
      .executeTakeFirstOrThrow();
    return ok(readablePrescription(toPrescription(row), readUrl));
  });
}
