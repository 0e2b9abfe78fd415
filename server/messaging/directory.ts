import type { Kysely } from 'kysely';
import type { MessagingDatabase } from '../db/messaging-schema';
import { RequestError, Text } from './protocol';

/**
 * Who belongs to which group. The messaging server never decides membership itself: the application
 * that embeds it does. In the shop (server/main.ts) that is the shop's own groups (`social_groups`,
 * `group_members`, joined by the shop's rules); a messaging server running alone (standalone.ts, the
 * tests of the wire protocol) keeps GoEasy's open groups in its own `msg_group_member` table.
 */
export interface GroupDirectory {
  isMember(groupId: string, userId: string): Promise<boolean>;
  members(groupId: string): Promise<string[]>;
  groupsOf(userId: string): Promise<string[]>;
  /** Joins by the owner's rules, or throws the refusal (a RequestError the client sees). */
  join(groupId: string, userId: string): Promise<void>;
  leave(groupId: string, userId: string): Promise<void>;
}

/** GoEasy's own model: any id names a group, and subscribing joins it. */
export function openGroups(db: Kysely<MessagingDatabase>): GroupDirectory {
  return {
    async isMember(groupId, userId) {
      const row = await db
        .selectFrom('msg_group_member')
        .select('user_id')
        .where('group_id', '=', groupId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row !== undefined;
    },
    async members(groupId) {
      const rows = await db.selectFrom('msg_group_member').select('user_id').where('group_id', '=', groupId).execute();
      return rows.map((row) => row.user_id as string);
    },
    async groupsOf(userId) {
      const rows = await db.selectFrom('msg_group_member').select('group_id').where('user_id', '=', userId).execute();
      return rows.map((row) => row.group_id as string);
    },
    async join(groupId, userId) {
      await db
        .insertInto('msg_group_member')
        .values({ group_id: groupId, user_id: userId })
        .onConflict((oc) => oc.columns(['group_id', 'user_id']).doNothing())
        .execute();
    },
    async leave(groupId, userId) {
      await db.deleteFrom('msg_group_member').where('group_id', '=', groupId).where('user_id', '=', userId).execute();
    },
  };
}

/** The shop's rule for joining one of its groups: it answers the refusal, or null once the user is a member. */
export type ShopGroupJoin = (groupId: number, userId: number) => Promise<{ status: number; message: string } | null>;

/**
 * The shop's groups: numeric ids of `social_groups`, members in `group_members`, joined through the same
 * rule as POST /api/social/join_group. Messaging user ids are the shop's user ids as strings.
 */
export function shopGroups(db: Kysely<MessagingDatabase>, join: ShopGroupJoin): GroupDirectory {
  const shopId = (id: string) => (/^[1-9]\d{0,15}$/.test(id) ? Number(id) : null);
  return {
    async isMember(groupId, userId) {
      const group = shopId(groupId);
      const user = shopId(userId);
      if (group === null || user === null) return false;
      const row = await db
        .selectFrom('group_members')
        .select('user_id')
        .where('group_id', '=', group)
        .where('user_id', '=', user)
        .executeTakeFirst();
      return row !== undefined;
    },
    async members(groupId) {
      const group = shopId(groupId);
      if (group === null) return [];
      const rows = await db.selectFrom('group_members').select('user_id').where('group_id', '=', group).execute();
      return rows.map((row) => String(row.user_id));
    },
    async groupsOf(userId) {
      const user = shopId(userId);
      if (user === null) return [];
      const rows = await db.selectFrom('group_members').select('group_id').where('user_id', '=', user).execute();
      return rows.map((row) => String(row.group_id));
    },
    async join(groupId, userId) {
      const group = shopId(groupId);
      const user = shopId(userId);
      if (group === null || user === null) throw new RequestError(404, `group ${groupId} does not exist.`);
      const refusal = await join(group, user);
      if (refusal) throw new RequestError(refusal.status, refusal.message);
    },
    async leave(groupId, userId) {
      const group = shopId(groupId);
      const user = shopId(userId);
      if (group === null || user === null) throw new RequestError(401, Text.NOT_A_MEMBER);
      await db.deleteFrom('group_members').where('group_id', '=', group).where('user_id', '=', user).execute();
    },
  };
}
