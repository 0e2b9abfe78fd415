import type { Address } from '../../types/api';
import type { ParsedRequestOf } from '../../types/contract';
import type { AppContext } from '../context';
import { ApiError } from '../http';
import { toAddress } from './records';

/** The user's addresses, the default first. */
export async function listAddresses(ctx: AppContext, userId: number): Promise<Address[]> {
  const rows = await ctx.db
    .selectFrom('addresses')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('is_default', 'desc')
    .orderBy('id')
    .execute();
  return rows.map(toAddress);
}

/**
 * set_user_address: a new address, or a change of one of the user's own (address_id). The first address, and one
 * saved with is_default, becomes the default.
 */
export async function saveAddress(
  ctx: AppContext,
  userId: number,
  input: ParsedRequestOf<'POST /api/user/set_user_address'>,
): Promise<Address> {
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
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    const makeDefault = isDefault || Number(count.n) === 0;
    if (makeDefault) await trx.updateTable('addresses').set({ is_default: 0 }).where('user_id', '=', userId).execute();
    if (addressId !== undefined) {
      const row = await trx
        .updateTable('addresses')
        .set({ ...fields, ...(makeDefault ? { is_default: 1 } : {}) })
        .where('id', '=', addressId)
        .where('user_id', '=', userId)
        .returningAll()
        .executeTakeFirst();
      if (!row) throw new ApiError(404, 'address_id: no such address');
      return row;
    }
    return trx
      .insertInto('addresses')
      .values({ ...fields, user_id: userId, is_default: makeDefault ? 1 : 0, created_at: ctx.now() })
      .returningAll()
      .executeTakeFirstOrThrow();
  });
  return toAddress(saved);
}

export async function deleteAddress(ctx: AppContext, userId: number, addressId: number): Promise<void> {
  const result = await ctx.db
    .deleteFrom('addresses')
    .where('id', '=', addressId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw new ApiError(404, 'address_id: no such address');
}
