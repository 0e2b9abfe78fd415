/** Groups: the member lists the group chat uses. */
import type { Kysely } from 'kysely';
import type { SocialGroup, UserCard } from '../../../types/api';
import type { ParsedRequestOf } from '../../../types/contract';
import { GROUP_MEMBERS_MAX } from '../../../types/schemas/social';
import type { UserRow } from '../../auth';
import type { AppContext } from '../../context';
import type { Database } from '../../db/schema';
import { ApiError } from '../../http';
import { toCards, toGroups } from './views';

/**
 * The shop's rule for joining a group, shared by join_group and the messaging server's subscribeGroups:
 * the group exists and has room. Answers the refusal, or null once the user is a member.
 */
export async function joinGroup(
  db: Kysely<Database>,
  groupId: number,
  userId: number,
  now: number,
): Promise<{ status: 404 | 409; message: string } | null> {
  const group = await db.selectFrom('social_groups').select('id').where('id', '=', groupId).executeTakeFirst();
  if (!group) return { status: 404, message: 'group_id: no such group' };
  const member = await db
    .selectFrom('group_members')
    .select('user_id')
    .where('group_id', '=', groupId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (member) return null;
  const { n } = await db
    .selectFrom('group_members')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('group_id', '=', groupId)
    .executeTakeFirstOrThrow();
  if (Number(n) >= GROUP_MEMBERS_MAX) {
    return { status: 409, message: `group_id: the group is full (${GROUP_MEMBERS_MAX} members)` };
  }
  await db
    .insertInto('group_members')
    .values({ group_id: groupId, user_id: userId, joined_at: now })
    .onConflict((oc) => oc.columns(['group_id', 'user_id']).doNothing())
    .execute();
  return null;
}

async function loadGroup(ctx: AppContext, groupId: number) {
  const row = await ctx.db.selectFrom('social_groups').selectAll().where('id', '=', groupId).executeTakeFirst();
  if (!row) throw new ApiError(404, 'group_id: no such group');
  return row;
}

async function members(ctx: AppContext, me: UserRow | null, groupId: number): Promise<UserCard[]> {
  const rows = await ctx.db
    .selectFrom('group_members')
    .select('user_id')
    .where('group_id', '=', groupId)
    .orderBy('joined_at')
    .orderBy('user_id')
    .execute();
  return toCards(
    ctx.db,
    me,
    rows.map((row) => row.user_id),
  );
}

export async function groupsOf(ctx: AppContext, me: UserRow): Promise<SocialGroup[]> {
  const rows = await ctx.db
    .selectFrom('social_groups')
    .innerJoin('group_members', 'group_members.group_id', 'social_groups.id')
    .selectAll('social_groups')
    .where('group_members.user_id', '=', me.id)
    .orderBy('social_groups.id', 'desc')
    .execute();
  return toGroups(ctx.db, me, rows);
}

export async function groupWithMembers(ctx: AppContext, me: UserRow, groupId: number) {
  const [group] = await toGroups(ctx.db, me, [await loadGroup(ctx, groupId)]);
  return { ...group, members: await members(ctx, me, group.group_id) };
}

/** create_group: the creator and the given users (who must exist) become its members. */
export async function createGroup(
  ctx: AppContext,
  me: UserRow,
  input: ParsedRequestOf<'POST /api/social/create_group'>,
): Promise<SocialGroup> {
  const others = [...new Set(input.member_ids.filter((memberId) => memberId !== me.id))];
  if (others.length > 0) {
    const found = await ctx.db.selectFrom('users').select('id').where('id', 'in', others).execute();
    const known = new Set(found.map((row) => row.id));
    const missing = others.find((memberId) => !known.has(memberId));
    if (missing !== undefined) throw new ApiError(404, `member_ids: no such user ${missing}`);
  }
  const now = ctx.now();
  const row = await ctx.db.transaction().execute(async (trx) => {
    const group = await trx
      .insertInto('social_groups')
      .values({ name: input.name, owner_id: me.id, created_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('group_members')
      .values([me.id, ...others].map((userId) => ({ group_id: group.id, user_id: userId, joined_at: now })))
      .execute();
    return group;
  });
  const [group] = await toGroups(ctx.db, me, [row]);
  return group;
}

export async function joinGroupAs(ctx: AppContext, me: UserRow, groupId: number): Promise<SocialGroup> {
  const refusal = await joinGroup(ctx.db, groupId, me.id, ctx.now());
  if (refusal) throw new ApiError(refusal.status, refusal.message);
  const [group] = await toGroups(ctx.db, me, [await loadGroup(ctx, groupId)]);
  return group;
}

export async function leaveGroup(ctx: AppContext, me: UserRow, groupId: number): Promise<void> {
  await loadGroup(ctx, groupId);
  const result = await ctx.db
    .deleteFrom('group_members')
    .where('group_id', '=', groupId)
    .where('user_id', '=', me.id)
    .executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw new ApiError(404, 'group_id: you are not a member');
}

export async function groupMembers(ctx: AppContext, me: UserRow, groupId: number): Promise<UserCard[]> {
  await loadGroup(ctx, groupId);
  return members(ctx, me, groupId);
}
