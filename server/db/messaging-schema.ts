import type { Kysely } from 'kysely';
import type { GroupMembersTable } from './social-schema';

/**
 * The messaging server's tables (created by ./messaging-migrations.ts), typed for Kysely. Same portable column
 * types as the product tables: text, integers for flags (0/1) and times (epoch milliseconds, `bigint` columns that
 * PostgreSQL hands back as strings, hence `number | string` where a row is read).
 */
type Millis = number | string;

export interface MsgPubsubMessageTable {
  guid: string;
  channel: string;
  content: string;
  sender_id: string;
  created_at: Millis;
}

export interface MsgImMessageTable {
  id: string;
  scene: string;
  conversation: string;
  sender_id: string;
  sender_data: string;
  receiver: string;
  team_id: string | null;
  customer_id: string | null;
  type: string;
  payload: string;
  ts: Millis;
  session_id: string | null;
  accepted: number;
  recalled: number;
  recaller: string | null;
  notification: string | null;
}

export interface MsgImDeliveryTable {
  user_id: string;
  message_id: string;
  created_at: Millis;
}

export interface MsgImDeletedTable {
  user_id: string;
  message_id: string;
  conversation: string;
  ts: Millis;
}

export interface MsgImOffsetTable {
  conversation: string;
  user_id: string;
  offset: Millis;
}

export interface MsgImConversationTable {
  owner_id: string;
  scene: string;
  target_id: string;
  team_id: string;
  conversation: string;
  top: number;
  data: string;
  removed_at: Millis;
  updated_at: Millis;
}

export interface MsgGroupMemberTable {
  group_id: string;
  user_id: string;
}

export interface MsgCsSessionTable {
  team_id: string;
  customer_id: string;
  status: string;
  session_id: string;
  start: Millis;
  agent_id: string | null;
  agent_data: string | null;
  customer_data: string;
}

export interface MsgCsAgentTable {
  team_id: string;
  agent_id: string;
  agent_data: string;
  team_data: string;
  online: number;
}

export interface MsgUserWxmpTable {
  user_id: string;
  appid: string;
  openid: string;
}

export interface MsgOutboxTable {
  id: string;
  kind: string;
  recipient: string;
  body: string;
  created_at: Millis;
}

export interface MsgRevocationTable {
  user_id: string;
  session_ref: string;
  revoked_at: Millis;
}

export interface MsgCsAssignmentTable {
  team_id: string;
  agent_id: string;
  created_at: Millis;
}

export interface MsgMarkerTable {
  name: string;
}

export interface MessagingTables {
  msg_pubsub_message: MsgPubsubMessageTable;
  msg_im_message: MsgImMessageTable;
  msg_im_delivery: MsgImDeliveryTable;
  msg_im_deleted: MsgImDeletedTable;
  msg_im_offset: MsgImOffsetTable;
  msg_im_conversation: MsgImConversationTable;
  msg_group_member: MsgGroupMemberTable;
  msg_cs_session: MsgCsSessionTable;
  msg_cs_agent: MsgCsAgentTable;
  msg_user_wxmp: MsgUserWxmpTable;
  msg_outbox: MsgOutboxTable;
  msg_revocation: MsgRevocationTable;
  msg_cs_assignment: MsgCsAssignmentTable;
  msg_marker: MsgMarkerTable;
}

/** What the messaging server queries: its own tables, and the shop's group membership (shopGroups). */
export interface MessagingDatabase extends MessagingTables {
  group_members: GroupMembersTable;
}

/**
 * The shop's database as the messaging server sees it: the same connection (the product migrator creates the
 * messaging tables beside its own, see migrations.ts), typed by the tables messaging queries. Kysely's database
 * type is invariant, so this one named boundary stands where the shop hands its handle to messaging.
 */
export function messagingDb<DB extends object>(db: Kysely<DB>): Kysely<MessagingDatabase> {
  return db as unknown as Kysely<MessagingDatabase>;
}
