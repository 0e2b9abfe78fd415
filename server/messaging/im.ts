import { randomUUID } from 'node:crypto';
import { type AliasedRawBuilder, type Kysely, type Transaction, sql } from 'kysely';
import type { MessagingDatabase } from '../db/messaging-schema';
import type { ConnectionHooks } from './connection';
import { type MessagingContext, type MessagingSocket, handle, identity, userOf } from './context';
import type { SentSystemMessage, SystemMessage } from './control';
import type { FileGrants } from './files';
import { groupPresenceEvent, isUserIn, membersOf, userPresenceEvent } from './presence';
import {
  Call,
  CsMessageType,
  Limits,
  Push,
  RequestError,
  Rooms,
  SYSTEM_SENDER,
  Scene,
  Text,
  badRequest,
  conversationKey,
  wireConversationId,
} from './protocol';
import {
  validateId,
  validateIdArray,
  validateImPayload,
  validateImTarget,
  validateLimit,
  validateNotification,
  validateScene,
  validateTimes,
  validateWxmpTemplateMsg,
} from './validate';

export interface ImMessageRow {
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
  ts: number | string;
  session_id: string | null;
  accepted: number;
  recalled: number;
  recaller: string | null;
  notification: string | null;
}

/**
 * The abbreviated form every push and query uses (imMessage, IM_HISTORY, lmsg). Files of the built-in
 * upload endpoint that the sender owns get freshly signed URLs, so whoever is sent the message can read them.
 */
export function abbreviate(row: ImMessageRow, files: FileGrants | null): Record<string, unknown> {
  const message: Record<string, unknown> = {
    t: row.scene,
    r: row.receiver,
    s: row.sender_id,
    i: row.id,
    ts: Number(row.ts),
    mt: row.type,
    p: files ? files.signPayload(row.payload, row.sender_id) : row.payload,
    d: row.sender_data,
  };
  if (row.scene === Scene.CS) {
    message.tid = row.team_id;
    message.accepted = row.accepted === 1;
    message.sessionId = row.session_id;
  }
  if (row.recalled === 1) {
    message.rc = true;
    message.recaller = row.recaller ? JSON.parse(row.recaller) : undefined;
  }
  if (row.notification) message.nt = JSON.parse(row.notification);
  return message;
}

/** Which conversation a request about (scene, id, teamId) means for this user, and whose it is. */
export interface ConversationRef {
  scene: string;
  /** The id the client uses for the conversation (peer, group or team/customer). */
  targetId: string;
  teamId: string;
  key: string;
  /** For CS: the customer of the conversation. */
  customerId: string;
}

export function resolveConversation(me: string, scene: string, rawId: unknown, rawTeamId: unknown): ConversationRef {
  const targetId = validateId(rawId, 'id');
  if (scene === Scene.PRIVATE) {
    return { scene, targetId, teamId: '', key: conversationKey(scene, me, targetId), customerId: '' };
  }
  if (scene === Scene.GROUP) {
    return { scene, targetId, teamId: '', key: conversationKey(scene, '', targetId), customerId: '' };
  }
  if (scene === Scene.SYSTEM) {
    // Only the user the system sender wrote to has this conversation: the key names them.
    return { scene, targetId, teamId: '', key: conversationKey(scene, targetId, me), customerId: '' };
  }
  if (scene === Scene.CS) {
    const teamId =
      rawTeamId === undefined || rawTeamId === null || rawTeamId === '' ? targetId : validateId(rawTeamId, 'teamId');
    const customerId = targetId === teamId ? me : targetId;
    return { scene, targetId, teamId, key: conversationKey(scene, teamId, customerId), customerId };
  }
  throw badRequest(`scene ${scene} not exists`);
}

export interface StoredMessage {
  row: ImMessageRow;
  created: boolean;
}

export interface NewMessage {
  id: string;
  scene: string;
  conversation: string;
  senderId: string;
  senderData: string;
  receiver: string;
  teamId?: string;
  customerId?: string;
  type: string;
  payload: string;
  sessionId?: string;
  accepted?: boolean;
  notification?: Record<string, unknown>;
  /** Who must acknowledge it (`imAck`); it is delivered again to them until they do. */
  receivers: string[];
  /**
   * Rows written in the same transaction, after the delivery rows (a group message's conversation rows): one commit
   * for the message instead of two, and the conversations never name a message that is not there.
   */
  alongside?: (trx: Transaction<MessagingDatabase>, row: ImMessageRow) => Promise<void>;
}

export interface ImService {
  stop(): void;
  /**
   * Stores a message once per id, together with who must acknowledge it (one transaction, so a crash never
   * leaves a stored message nobody will be pushed); a second call with the same id returns the first.
   * `push`, when given, is called inside the transaction once the message row is in and before the receivers'
   * delivery rows are written: online receivers are not kept waiting for a thousand rows. Should the transaction
   * then fail, the sender is answered an error and retries with the same id (receivers drop a second push by id).
   */
  store(message: NewMessage, push?: (row: ImMessageRow) => void): Promise<StoredMessage>;
  /** Pushes a stored message to every listed room except the sending socket. */
  deliver(row: ImMessageRow, rooms: string[], exceptSocketId?: string): void;
  upsertConversation(
    owner: string,
    scene: string,
    targetId: string,
    teamId: string,
    key: string,
    ts: number,
    data?: string,
  ): Promise<void>;
  offsets(key: string): Promise<{ userId: string; offset: number }[]>;
  lastMessage(key: string, viewer: string): Promise<ImMessageRow | undefined>;
  /** The CS module plugs its sender in here, keeping publishIM one request for every scene. */
  setCsSender(sender: SendCs): void;
  /** The shop's system messages (MessagingControl.sendSystemMessage): stored, listed and pushed like any other. */
  sendSystem(message: SystemMessage): Promise<SentSystemMessage[]>;
}

/** The unacknowledged deliveries one query reads (a connect's catch-up, a redelivery). */
const UNACKNOWLEDGED_PAGE = 200;

/** How long acknowledgements gather before they are deleted together. */
const ACK_BATCH_MS = 25;

/**
 * A list of user ids as a one-column table `ids(value)`, bound as one JSON parameter however long the list.
 * A group message names every member three times (its delivery rows, its conversation rows, the acknowledgements'
 * delete): written as one row of values per member, each of those statements cost Kysely and the driver thousands
 * of bound parameters to build, compile and bind (in a one-off measurement on SQLite, 25 ms of a message to 1,000
 * members against 4 ms this way). The database expands the array itself: SQLite's json_each, PostgreSQL's
 * json_array_elements_text.
 */
function idTable(dialect: 'sqlite' | 'postgres', ids: string[]): AliasedRawBuilder<{ value: string }, 'ids'> {
  const json = JSON.stringify(ids);
  return (
    dialect === 'postgres'
      ? sql<{ value: string }>`(select value from json_array_elements_text(cast(${json} as json)) as list(value))`
      : sql<{ value: string }>`(select value from json_each(${json}))`
  ).as('ids');
}

/** A bound epoch-milliseconds value PostgreSQL types as the bigint column it goes into (an `insert … select`). */
const millis = (value: number) => sql<number>`cast(${value} as bigint)`;

export function registerIm(ctx: MessagingContext, hooks: ConnectionHooks): ImService {
  const { db } = ctx;
  const redeliveryTimers = new Set<NodeJS.Timeout>();
  let sendCs: SendCs | undefined;

  /**
   * Delivery rows being written, by message id: an acknowledgement that arrives before its row is committed (a
   * pushed message is acknowledged while PostgreSQL still writes its fan-out) waits for it before the delete.
   */
  const fanOutWrites = new Map<string, Promise<unknown>>();

  async function store(message: NewMessage, push?: (row: ImMessageRow) => void): Promise<StoredMessage> {
    const existing = await db.selectFrom('msg_im_message').selectAll().where('id', '=', message.id).executeTakeFirst();
    if (existing) return { row: existing as ImMessageRow, created: false };
    const row: ImMessageRow = {
      id: message.id,
      scene: message.scene,
      conversation: message.conversation,
      sender_id: message.senderId,
      sender_data: message.senderData,
      receiver: message.receiver,
      team_id: message.teamId ?? null,
      customer_id: message.customerId ?? null,
      type: message.type,
      payload: message.payload,
      ts: ctx.now(),
      session_id: message.sessionId ?? null,
      accepted: message.accepted ? 1 : 0,
      recalled: 0,
      recaller: null,
      notification: message.notification ? JSON.stringify(message.notification) : null,
    };
    let written: (() => void) | undefined;
    const transaction = db.transaction().execute(async (trx) => {
      const result = await trx
        .insertInto('msg_im_message')
        .values(row)
        .onConflict((oc) => oc.column('id').doNothing())
        .executeTakeFirst();
      if (Number(result.numInsertedOrUpdatedRows ?? 0) === 0) return false;
      if (message.receivers.length > 0) {
        fanOutWrites.set(
          row.id,
          new Promise<void>((resolve) => {
            written = resolve;
          }),
        );
      }
      // Watched before the push: an acknowledgement can come back before the commit (PostgreSQL still writing the
      // delivery rows), and strikes the message off only if it is already awaited.
      if (message.receivers.length > 0) watchDelivery(message.receivers, Date.now(), [row.id]);
      push?.(row);
      if (message.receivers.length > 0) {
        const createdAt = Date.now();
        await trx
          .insertInto('msg_im_delivery')
          .columns(['user_id', 'message_id', 'created_at'])
          .expression((eb) =>
            eb
              .selectFrom(idTable(ctx.dialect, message.receivers))
              .select((inner) => ['ids.value', inner.val(row.id).as('message_id'), millis(createdAt).as('created_at')])
              // SQLite reads `on conflict` after `insert … select` only when the select has a where clause.
              .where(sql<boolean>`true`),
          )
          .onConflict((oc) => oc.columns(['user_id', 'message_id']).doNothing())
          .execute();
      }
      await message.alongside?.(trx, row);
      return true;
    });
    const created = await transaction.finally(() => {
      fanOutWrites.delete(row.id);
      written?.();
    });
    if (created) {
      if (message.receivers.length > 0) announcePending(message.receivers, Date.now(), row.id);
      return { row, created: true };
    }
    // Another process (or a concurrent retry) stored it first.
    const winner = await db.selectFrom('msg_im_message').selectAll().where('id', '=', message.id).executeTakeFirst();
    return { row: winner as ImMessageRow, created: false };
  }

  function deliver(row: ImMessageRow, rooms: string[], exceptSocketId?: string) {
    if (rooms.length === 0) return;
    const target = exceptSocketId ? ctx.io.to(rooms).except(exceptSocketId) : ctx.io.to(rooms);
    target.emit(Push.IM_MESSAGE, abbreviate(row, ctx.files));
  }

  async function upsertConversation(
    owner: string,
    scene: string,
    targetId: string,
    teamId: string,
    key: string,
    ts: number,
    data?: string,
  ) {
    await db
      .insertInto('msg_im_conversation')
      .values({
        owner_id: owner,
        scene,
        target_id: targetId,
        team_id: teamId,
        conversation: key,
        top: 0,
        data: data ?? '{}',
        removed_at: 0,
        updated_at: ts,
      })
      .onConflict((oc) =>
        oc
          .columns(['owner_id', 'scene', 'target_id', 'team_id'])
          .doUpdateSet(data === undefined ? { updated_at: ts } : { updated_at: ts, data }),
      )
      .execute();
  }

  /** One conversation row per owner in one statement (a group message to 1,000 members writes 1,000 rows). */
  async function upsertConversations(
    executor: Kysely<MessagingDatabase>,
    owners: string[],
    scene: string,
    targetId: string,
    key: string,
    ts: number,
    data: string,
  ) {
    await executor
      .insertInto('msg_im_conversation')
      .columns(['owner_id', 'scene', 'target_id', 'team_id', 'conversation', 'top', 'data', 'removed_at', 'updated_at'])
      .expression((eb) =>
        eb
          .selectFrom(idTable(ctx.dialect, owners))
          .select((inner) => [
            'ids.value',
            inner.val(scene).as('scene'),
            inner.val(targetId).as('target_id'),
            inner.val('').as('team_id'),
            inner.val(key).as('conversation'),
            sql.lit(0).as('top'),
            inner.val(data).as('data'),
            sql.lit(0).as('removed_at'),
            millis(ts).as('updated_at'),
          ])
          .where(sql<boolean>`true`),
      )
      .onConflict((oc) =>
        // Two messages to one group stored at once (two processes, or PostgreSQL's concurrent transactions) may
        // reach the rows in either order: the later message's time and data stay.
        oc
          .columns(['owner_id', 'scene', 'target_id', 'team_id'])
          .doUpdateSet({
            updated_at: sql<number>`case when excluded.updated_at >= msg_im_conversation.updated_at
              then excluded.updated_at else msg_im_conversation.updated_at end`,
            data: sql<string>`case when excluded.updated_at >= msg_im_conversation.updated_at
              then excluded.data else msg_im_conversation.data end`,
          }),
      )
      .execute();
  }

  async function offsets(key: string) {
    const rows = await db
      .selectFrom('msg_im_offset')
      .select(['user_id', 'offset'])
      .where('conversation', '=', key)
      .execute();
    return rows.map((row) => ({ userId: row.user_id as string, offset: Number(row.offset) }));
  }

  async function lastMessage(key: string, viewer: string) {
    return (await db
      .selectFrom('msg_im_message')
      .selectAll()
      .where('conversation', '=', key)
      .where('id', 'not in', db.selectFrom('msg_im_deleted').select('message_id').where('user_id', '=', viewer))
      .orderBy('ts', 'desc')
      .limit(1)
      .executeTakeFirst()) as ImMessageRow | undefined;
  }

  /** A page of the user's unacknowledged deliveries as the ids they owe, or null where there may be more. */
  const awaitedIds = (rows: { id: string }[]) => (rows.length < UNACKNOWLEDGED_PAGE ? rows.map((row) => row.id) : null);

  /** The deliveries the user has not acknowledged yet (the oldest 200), with when each was made. */
  async function unacknowledged(userId: string) {
    return (await db
      .selectFrom('msg_im_delivery')
      .innerJoin('msg_im_message', 'msg_im_message.id', 'msg_im_delivery.message_id')
      .selectAll('msg_im_message')
      .select('msg_im_delivery.created_at as delivered_at')
      .where('msg_im_delivery.user_id', '=', userId)
      .orderBy('msg_im_message.ts', 'asc')
      .limit(UNACKNOWLEDGED_PAGE)
      .execute()) as (ImMessageRow & { delivered_at: number | string })[];
  }

  /**
   * Redelivery without polling: a user is watched only while this process knows of a delivery they may not have
   * acknowledged (a message stored for them, or found unacknowledged when they connected). One timer looks at the
   * watched users every MESSAGING_REDELIVERY_MS and queries only those with a socket here whose oldest delivery
   * is due; a user with nothing outstanding is forgotten. An idle connection costs no query at all.
   *
   * Where this process knows which messages a user owes an acknowledgement for (`awaiting`), their acknowledgements
   * strike them off and the user is forgotten with the last one: a group message to 1,000 online members who all
   * acknowledge it costs no query when it falls due (it cost one per member). `awaiting` is null where the ids are
   * not all known (more than a query's page found at connect): the database is asked, as before.
   */
  interface Watched {
    since: number;
    awaiting: string[] | null;
    /** Counts the messages watched for since the entry was made: a redelivery's query does not see those. */
    added: number;
  }
  const outstanding = new Map<string, Watched>();
  function watchDelivery(userIds: Iterable<string>, since: number, messageIds: string[] | null) {
    for (const userId of userIds) {
      const known = outstanding.get(userId);
      if (known === undefined) {
        outstanding.set(userId, { since, awaiting: messageIds ? [...messageIds] : null, added: 0 });
        continue;
      }
      known.added += 1;
      if (since < known.since) known.since = since;
      if (!messageIds) known.awaiting = null;
      else if (known.awaiting) for (const id of messageIds) if (!known.awaiting.includes(id)) known.awaiting.push(id);
    }
  }
  /** An acknowledgement received here: the user owes one message fewer (forgotten when they owe none). */
  function struckOff(userId: string, messageId: string) {
    const known = outstanding.get(userId);
    if (!known?.awaiting) return;
    const index = known.awaiting.indexOf(messageId);
    if (index !== -1) known.awaiting.splice(index, 1);
    if (known.awaiting.length === 0) outstanding.delete(userId);
  }
  const localSockets = (userId: string) => ctx.io.sockets.adapter.rooms.get(Rooms.user(userId));
  async function redeliverDue() {
    const due = Date.now() - ctx.config.redeliveryMs;
    for (const [userId, watched] of outstanding) {
      if (watched.since > due) continue;
      const sockets = localSockets(userId);
      if (!sockets || sockets.size === 0) {
        // Not connected here: their next authorize looks for what they missed.
        outstanding.delete(userId);
        continue;
      }
      const added = watched.added;
      const rows = await unacknowledged(userId);
      const late = rows.filter((row) => Number(row.delivered_at) <= due);
      for (const row of late) ctx.io.local.to(Rooms.user(userId)).emit(Push.IM_MESSAGE, abbreviate(row, ctx.files));
      // Watched for another message while the query ran (it may not have seen it), or struck off meanwhile: the
      // entry as it is now stands, and the next look decides.
      if (outstanding.get(userId) !== watched || watched.added !== added) continue;
      if (rows.length === 0) outstanding.delete(userId);
      else {
        watched.since = Math.max(Number(rows[0].delivered_at), due);
        watched.awaiting = awaitedIds(rows);
      }
    }
  }
  let redelivering = false;
  const redeliveryTimer = setInterval(() => {
    if (redelivering || outstanding.size === 0) return;
    redelivering = true;
    redeliverDue()
      .catch((err) => ctx.log.error({ err }, 'messaging redelivery failed'))
      .finally(() => {
        redelivering = false;
      });
  }, ctx.config.redeliveryMs);
  redeliveryTimer.unref();
  redeliveryTimers.add(redeliveryTimer);
  // With several processes, the process that stored a message tells the others whom to watch.
  ctx.io.on('imPending', (userIds: unknown, since: unknown, messageId: unknown) => {
    if (!Array.isArray(userIds) || typeof since !== 'number') return;
    watchDelivery(userIds.map(String), since, typeof messageId === 'string' ? [messageId] : null);
  });
  function announcePending(userIds: string[], since: number, messageId: string) {
    if (ctx.config.redisUrl) ctx.io.serverSideEmit('imPending', userIds, since, messageId);
  }

  /**
   * Acknowledgements arrive one per receiver (a group message to 1,000 online members brings 1,000): they are
   * deleted together, one statement per message, a moment later.
   */
  const acks = new Map<string, Set<string>>();
  let ackFlush: NodeJS.Timeout | null = null;
  function acknowledge(userId: string, messageId: string) {
    struckOff(userId, messageId);
    const users = acks.get(messageId) ?? new Set<string>();
    users.add(userId);
    acks.set(messageId, users);
    if (!ackFlush) ackFlush = setTimeout(flushAcks, ACK_BATCH_MS);
  }
  async function flushAcks() {
    ackFlush = null;
    const batch = [...acks];
    acks.clear();
    for (const [messageId, users] of batch) {
      await fanOutWrites.get(messageId);
      await db
        .deleteFrom('msg_im_delivery')
        .where('message_id', '=', messageId)
        .where('user_id', 'in', (eb) => eb.selectFrom(idTable(ctx.dialect, [...users])).select('ids.value'))
        .execute()
        .catch((err) => ctx.log.error({ err }, 'messaging imAck failed'));
    }
  }

  async function joinGroups(socket: MessagingSocket) {
    const who = identity(socket);
    if (who.anonymous) return;
    const groups = await ctx.groups.groupsOf(who.userId);
    const userSockets = await ctx.io.in(Rooms.user(who.userId)).fetchSockets();
    const userWasOnline = userSockets.some((other) => other.id !== socket.id);
    for (const groupId of groups) {
      socket.join(Rooms.group(groupId));
      if (!userWasOnline) await groupPresenceEvent(ctx, groupId, who.userId, who.userData, 'online');
    }
    if (!userWasOnline) userPresenceEvent(ctx, who.userId, who.userData, 'online');
  }

  hooks.authorized.push(async (socket) => {
    const who = identity(socket);
    if (who.anonymous) return;
    await joinGroups(socket);
    if (!who.modules.includes('IM')) return;
    // What this user missed while away, once per connect; then watched only if something stays unacknowledged.
    const rows = await unacknowledged(who.userId);
    if (!socket.connected) return;
    for (const row of rows) socket.emit(Push.IM_MESSAGE, abbreviate(row, ctx.files));
    if (rows.length > 0) watchDelivery([who.userId], Date.now(), awaitedIds(rows));
  });

  hooks.disconnected.push(async (socket, rooms) => {
    const who = identity(socket);
    if (who.anonymous) return;
    if (await isUserIn(ctx, Rooms.user(who.userId), who.userId)) return;
    userPresenceEvent(ctx, who.userId, who.userData, 'offline');
    for (const room of rooms) {
      if (room.startsWith('g:')) await groupPresenceEvent(ctx, room.slice(2), who.userId, who.userData, 'offline');
    }
  });

  /** The group's members as the directory lists them now; refused unless `userId` is one of them. */
  async function groupMembers(groupId: string, userId: string): Promise<string[]> {
    const members = await ctx.groups.members(groupId);
    if (!members.includes(userId)) throw new RequestError(401, Text.NOT_A_MEMBER);
    return members;
  }

  async function requireMember(groupId: string, userId: string): Promise<void> {
    if (!(await ctx.groups.isMember(groupId, userId))) throw new RequestError(401, Text.NOT_A_MEMBER);
  }

  /** Who may read (and mark read) a conversation: its two users, a group's members, a CS customer and the team's agents. */
  async function assertCanRead(me: string, ref: ConversationRef): Promise<void> {
    if (ref.scene === Scene.GROUP) return requireMember(ref.targetId, me);
    if (ref.scene !== Scene.CS || ref.customerId === me) return;
    if (!(await isAssignedAgent(ctx, ref.teamId, me))) throw new RequestError(401, Text.NO_PERMISSION);
  }

  /** The IM requests, registered once (ctx.routes serves every socket). */
  function registerRequests() {
    handle(ctx, Call.PUBLISH_IM, 'write', async (socket, payload) => {
      const who = identity(socket);
      if (who.anonymous) throw new RequestError(401, Text.NO_PERMISSION);
      const target = validateImTarget(payload.to, payload.d, payload.t, who.userId);
      const { type, payload: body } = validateImPayload(payload.mt, payload.p, ctx.config.limits.payloadBytes);
      const notification =
        payload.nt !== undefined && payload.nt !== null ? validateNotification(payload.nt) : undefined;
      const wxmp = payload.wxmpTemplateMsg
        ? validateWxmpTemplateMsg(payload.wxmpTemplateMsg, ctx.config.wechat.templateIds)
        : undefined;
      const id = typeof payload.guid === 'string' && payload.guid !== '' ? payload.guid.slice(0, 64) : randomUUID();
      const nt = notification
        ? { t: notification.title, c: notification.body, sound: notification.sound, badge: notification.badge }
        : undefined;
      const known = await db.selectFrom('msg_im_message').selectAll().where('id', '=', id).executeTakeFirst();
      if (known) {
        // A resend (`retried`) answers as the first did, counts nothing and sends nothing; an id taken by
        // someone else's message is refused rather than answered with that message's details.
        if (known.sender_id !== who.userId) throw badRequest(Text.INVALID_MESSAGE);
        return target.scene === Scene.CS
          ? { timestamp: Number(known.ts), sessionId: known.session_id }
          : { timestamp: Number(known.ts) };
      }
      await ctx.limits.message(socket.id, who.userId);
      if (wxmp) await ctx.limits.template(who.userId);
      if (target.scene === Scene.CS) {
        if (!sendCs) throw badRequest(Text.TO_TYPE);
        return sendCs(ctx, service, socket, target.id, payload.tid, target.data, type, body, id, nt);
      }
      const key = conversationKey(target.scene, who.userId, target.id);
      const members = target.scene === Scene.GROUP ? await groupMembers(target.id, who.userId) : [];
      // Pushed as soon as the message row is in (see store): to the members the shop lists now, not to whoever once
      // joined the group's room; the delivery and conversation rows follow.
      const rooms =
        target.scene === Scene.PRIVATE ? [Rooms.user(target.id), Rooms.user(who.userId)] : members.map(Rooms.user);
      const { row, created } = await store(
        {
          id,
          scene: target.scene,
          conversation: key,
          senderId: who.userId,
          senderData: who.userData,
          receiver: target.id,
          type,
          payload: body,
          notification: nt,
          receivers: target.scene === Scene.PRIVATE ? [target.id] : members.filter((member) => member !== who.userId),
          // A group's conversation rows go in with the message. Sorted, so two messages to one group take the rows'
          // locks in the same order on PostgreSQL (each waits for the other rather than deadlocking).
          alongside:
            target.scene === Scene.GROUP
              ? (trx, stored) =>
                  upsertConversations(
                    trx,
                    [...members].sort(),
                    Scene.GROUP,
                    target.id,
                    key,
                    Number(stored.ts),
                    JSON.stringify(target.data),
                  )
              : undefined,
        },
        (stored) => deliver(stored, rooms, socket.id),
      );
      const ts = Number(row.ts);
      if (created) {
        if (target.scene === Scene.PRIVATE) {
          await upsertConversation(who.userId, Scene.PRIVATE, target.id, '', key, ts, JSON.stringify(target.data));
          await upsertConversation(target.id, Scene.PRIVATE, who.userId, '', key, ts, who.userData);
        }
        const pushTarget = {
          kind: target.scene === Scene.PRIVATE ? ('user' as const) : ('group' as const),
          id: target.id,
        };
        if (notification) {
          const source = { scene: target.scene, senderId: who.userId, messageId: id };
          ctx.external(() => ctx.push.notify(pushTarget, notification, source));
        }
        if (wxmp) {
          // As GoEasy: the template message is for the receivers who are offline (the others see the message).
          const receivers = target.scene === Scene.PRIVATE ? [target.id] : members.filter((m) => m !== who.userId);
          ctx.external(async () => {
            const online = await Promise.all(receivers.map((id) => isUserIn(ctx, Rooms.user(id), id)));
            const offline = receivers.filter((_id, index) => !online[index]);
            await ctx.wechat.send({ kind: 'users', ids: offline }, wxmp);
          });
        }
      }
      return { timestamp: ts };
    });

    ctx.routes.on(Push.IM_ACK, (socket, payload) => {
      const messageId = (payload as { publishGuid?: unknown } | null)?.publishGuid;
      const who = identity(socket);
      if (typeof messageId !== 'string' || messageId.length > 64 || !who.authorized || who.anonymous) return;
      acknowledge(who.userId, messageId);
    });

    handle(ctx, Call.IM_HISTORY, 'read', async (socket, payload) => {
      const scene = validateScene(payload.scene);
      const ref = resolveConversation(userOf(socket), scene, payload.id, payload.teamId);
      await assertCanRead(userOf(socket), ref);
      const limit = validateLimit(payload.limit, Limits.HISTORY_DEFAULT, Limits.HISTORY_MAX);
      const before =
        typeof payload.lastTimestamp === 'number' && payload.lastTimestamp > 0
          ? payload.lastTimestamp
          : Number.MAX_SAFE_INTEGER;
      const rows = (await db
        .selectFrom('msg_im_message')
        .selectAll()
        .where('conversation', '=', ref.key)
        .where('ts', '<', before)
        .where(
          'id',
          'not in',
          db.selectFrom('msg_im_deleted').select('message_id').where('user_id', '=', userOf(socket)),
        )
        .orderBy('ts', 'desc')
        .limit(limit)
        .execute()) as ImMessageRow[];
      return {
        messages: rows.reverse().map((row) => abbreviate(row, ctx.files)),
        userOffsets: await offsets(ref.key),
      };
    });

    handle(ctx, Call.IM_HISTORY_CHANGE, 'read', async (socket, payload) => {
      const scene = validateScene(payload.scene);
      const ref = resolveConversation(userOf(socket), scene, payload.id, payload.teamId);
      await assertCanRead(userOf(socket), ref);
      const after = typeof payload.after === 'number' ? payload.after : Number.MAX_SAFE_INTEGER;
      const min = typeof payload.min === 'number' ? payload.min : 0;
      const deleted = await db
        .selectFrom('msg_im_deleted')
        .select('ts')
        .where('user_id', '=', userOf(socket))
        .where('conversation', '=', ref.key)
        .where('ts', '>=', min)
        .where('ts', '<=', after)
        .orderBy('ts', 'asc')
        .execute();
      const recalled = (await db
        .selectFrom('msg_im_message')
        .select(['ts', 'recaller'])
        .where('conversation', '=', ref.key)
        .where('recalled', '=', 1)
        .where('ts', '>=', min)
        .where('ts', '<=', after)
        .orderBy('ts', 'asc')
        .execute()) as { ts: number; recaller: string }[];
      const byRecaller = new Map<string, { recaller: unknown; times: number[] }>();
      for (const row of recalled) {
        const recaller = JSON.parse(row.recaller) as { id: string };
        const entry = byRecaller.get(recaller.id) ?? { recaller, times: [] };
        entry.times.push(Number(row.ts));
        byRecaller.set(recaller.id, entry);
      }
      return {
        userOffsets: await offsets(ref.key),
        deletedMessageTimes: deleted.map((row) => Number(row.ts)),
        recalledMessages: [...byRecaller.values()],
      };
    });

    handle(ctx, Call.IM_MARK_AS_READ, 'write', async (socket, payload) => {
      if (payload.id === undefined && payload.userId === undefined && payload.groupId === undefined) {
        throw badRequest(' id is required.');
      }
      const scene = validateScene(payload.scene);
      const ref = resolveConversation(userOf(socket), scene, payload.id, payload.teamId);
      await assertCanRead(userOf(socket), ref);
      const time = payload.lastTimestamp;
      if (typeof time !== 'number' || !Number.isFinite(time) || time <= 0) {
        throw badRequest('lastTimestamp must be a positive number.');
      }
      const current = await db
        .selectFrom('msg_im_offset')
        .select('offset')
        .where('conversation', '=', ref.key)
        .where('user_id', '=', userOf(socket))
        .executeTakeFirst();
      // Read marks only move forward; an older mark is accepted and changes nothing.
      if (current && Number(current.offset) >= time) return 'ok';
      await db
        .insertInto('msg_im_offset')
        .values({ conversation: ref.key, user_id: userOf(socket), offset: time })
        .onConflict((oc) => oc.columns(['conversation', 'user_id']).doUpdateSet({ offset: time }))
        .execute();
      const event = { scene, targetId: ref.targetId, markerId: userOf(socket), teamId: ref.teamId || undefined, time };
      const rooms = [Rooms.user(userOf(socket))];
      if (scene === Scene.PRIVATE) rooms.push(Rooms.user(ref.targetId));
      if (scene === Scene.CS) {
        if (ref.customerId === userOf(socket)) {
          const session = await db
            .selectFrom('msg_cs_session')
            .select('agent_id')
            .where('team_id', '=', ref.teamId)
            .where('customer_id', '=', userOf(socket))
            .executeTakeFirst();
          if (session?.agent_id) rooms.push(Rooms.user(session.agent_id as string));
        } else {
          rooms.push(Rooms.user(ref.customerId));
        }
      }
      ctx.io.to(rooms).except(socket.id).emit(Push.IM_READ, event);
      return 'ok';
    });

    /**
     * The messages a recall or a delete names: those at `times` in one private or group conversation (CS refused
     * with `csRefused`, none found with `noneFound`), and their times in order for the event.
     */
    async function namedMessages(
      socket: MessagingSocket,
      payload: Record<string, any>,
      csRefused: string,
      noneFound: string,
    ) {
      const scene = validateScene(payload.scene);
      if (scene === Scene.CS) throw badRequest(csRefused);
      const ref = resolveConversation(userOf(socket), scene, payload.targetId, undefined);
      await assertCanRead(userOf(socket), ref);
      const rows = (await db
        .selectFrom('msg_im_message')
        .selectAll()
        .where('conversation', '=', ref.key)
        .where('ts', 'in', validateTimes(payload.times))
        .execute()) as ImMessageRow[];
      if (rows.length === 0) throw badRequest(noneFound);
      const times = rows.map((row) => Number(row.ts)).sort((a, b) => a - b);
      return { scene, ref, rows, times };
    }

    handle(ctx, Call.IM_RECALL, 'write', async (socket, payload) => {
      const { scene, ref, rows, times } = await namedMessages(
        socket,
        payload,
        Text.RECALL_CS_UNSUPPORTED,
        Text.INVALID_MESSAGE,
      );
      rows.forEach((row, index) => {
        if (row.sender_id !== userOf(socket)) throw badRequest(Text.RECALL_OTHERS);
        if (row.recalled === 1) throw badRequest(Text.alreadyRecalled(index));
      });
      const who = identity(socket);
      const recaller = { id: who.userId, data: JSON.parse(who.userData) };
      await db
        .updateTable('msg_im_message')
        .set({ recalled: 1, recaller: JSON.stringify(recaller) })
        .where(
          'id',
          'in',
          rows.map((row) => row.id),
        )
        .execute();
      const rooms =
        scene === Scene.PRIVATE
          ? [Rooms.user(ref.targetId), Rooms.user(userOf(socket))]
          : (await ctx.groups.members(ref.targetId)).map(Rooms.user);
      const conversationId = wireConversationId(scene, userOf(socket), ref.targetId);
      ctx.io.to(rooms).except(socket.id).emit(Push.IM_RECALLED, { scene, conversationId, recaller, times });
      return 'ok';
    });

    handle(ctx, Call.IM_DELETE, 'write', async (socket, payload) => {
      const { scene, ref, rows, times } = await namedMessages(
        socket,
        payload,
        Text.DELETE_CS_UNSUPPORTED,
        Text.NOTHING_TO_DELETE,
      );
      await db
        .insertInto('msg_im_deleted')
        .values(rows.map((row) => ({ user_id: userOf(socket), message_id: row.id, conversation: ref.key, ts: row.ts })))
        .onConflict((oc) => oc.columns(['user_id', 'message_id']).doNothing())
        .execute();
      await db
        .deleteFrom('msg_im_delivery')
        .where('user_id', '=', userOf(socket))
        .where(
          'message_id',
          'in',
          rows.map((row) => row.id as string),
        )
        .execute();
      ctx.io
        .to(Rooms.user(userOf(socket)))
        .except(socket.id)
        .emit(Push.IM_DELETED, {
          scene,
          targetId: ref.targetId,
          conversationId: wireConversationId(scene, userOf(socket), ref.targetId),
          deleterId: userOf(socket),
          times,
        });
      return 'ok';
    });

    handle(ctx, Call.LAST_CONVERSATIONS, 'read', async (socket) => {
      const conversations = await db
        .selectFrom('msg_im_conversation')
        .selectAll()
        .where('owner_id', '=', userOf(socket))
        .orderBy('top', 'desc')
        .orderBy('updated_at', 'desc')
        .limit(Limits.CONVERSATIONS)
        .execute();
      const list: Record<string, unknown>[] = [];
      for (const conversation of conversations) {
        const last = await lastMessage(conversation.conversation as string, userOf(socket));
        if (!last || Number(last.ts) <= Number(conversation.removed_at)) continue;
        list.push({
          t: conversation.scene,
          top: conversation.top === 1,
          d: conversation.data,
          lmsg: abbreviate(last, ctx.files),
          userOffsets: await offsets(conversation.conversation as string),
        });
      }
      return list;
    });

    handle(ctx, Call.TOP_CONVERSATION, 'write', async (socket, payload) => {
      if (typeof payload.top !== 'boolean') throw badRequest(Text.TOP_BOOLEAN);
      const conversation = await findConversation(socket, payload);
      await db
        .updateTable('msg_im_conversation')
        .set({ top: payload.top ? 1 : 0 })
        .where('owner_id', '=', userOf(socket))
        .where('scene', '=', conversation.scene)
        .where('target_id', '=', conversation.target_id)
        .where('team_id', '=', conversation.team_id)
        .execute();
      return 'ok';
    });

    handle(ctx, Call.REMOVE_CONVERSATION, 'write', async (socket, payload) => {
      const conversation = await findConversation(socket, payload);
      const last = await lastMessage(conversation.conversation as string, userOf(socket));
      if (conversation.scene === Scene.CS && last && !csConversationEnded(last, userOf(socket))) {
        throw badRequest(Text.CS_REMOVE_BEFORE_END);
      }
      await db
        .updateTable('msg_im_conversation')
        .set({ removed_at: last ? Number(last.ts) : Date.now(), top: 0 })
        .where('owner_id', '=', userOf(socket))
        .where('scene', '=', conversation.scene)
        .where('target_id', '=', conversation.target_id)
        .where('team_id', '=', conversation.team_id)
        .execute();
      return 'ok';
    });

    handle(ctx, Call.IM_DATA, 'read', async (socket, payload) => {
      const scene = validateScene(payload.type);
      const targetId = validateId(payload.targetId, 'targetId');
      const row = await db
        .selectFrom('msg_im_conversation')
        .select('data')
        .where('owner_id', '=', userOf(socket))
        .where('scene', '=', scene)
        .where('target_id', '=', targetId)
        .where('team_id', '=', scene === Scene.CS ? String(payload.teamId ?? targetId) : '')
        .executeTakeFirst();
      return (row?.data as string | undefined) ?? '{}';
    });

    async function findConversation(socket: MessagingSocket, payload: Record<string, any>) {
      const scene = validateScene(payload.type);
      const targetId = validateId(payload.targetId, 'targetId');
      const teamId = scene === Scene.CS ? String(payload.teamId ?? targetId) : '';
      const row = await db
        .selectFrom('msg_im_conversation')
        .selectAll()
        .where('owner_id', '=', userOf(socket))
        .where('scene', '=', scene)
        .where('target_id', '=', targetId)
        .where('team_id', '=', teamId)
        .executeTakeFirst();
      if (!row) {
        if (scene === Scene.CS) {
          const pending = await db
            .selectFrom('msg_cs_session')
            .select('status')
            .where('team_id', '=', teamId)
            .where('customer_id', '=', targetId)
            .executeTakeFirst();
          if (pending?.status === 'PENDING') throw badRequest(Text.PENDING_TOP_REMOVE);
        }
        throw badRequest(Text.NO_CONVERSATION);
      }
      return row;
    }

    handle(ctx, Call.SUBSCRIBE_GROUPS, 'write', async (socket, payload) => {
      const groupIds = validateIdArray(payload.groupIds, 'groupIds');
      const who = identity(socket);
      for (const groupId of groupIds) {
        // A member already, or joined now by the group owner's rules (the shop's, in the shop).
        if (!(await ctx.groups.isMember(groupId, who.userId))) await ctx.groups.join(groupId, who.userId);
        const wasOnline = await isUserIn(ctx, Rooms.group(groupId), who.userId);
        // Every device of the user follows the group, not only the one that asked.
        ctx.io.in(Rooms.user(who.userId)).socketsJoin(Rooms.group(groupId));
        socket.join(Rooms.group(groupId));
        if (!wasOnline) await groupPresenceEvent(ctx, groupId, who.userId, who.userData, 'online');
      }
      return 'ok';
    });

    handle(ctx, Call.UNSUBSCRIBE_GROUP, 'read', async (socket, payload) => {
      const groupId = validateId(payload.groupId, 'groupId');
      const who = identity(socket);
      await ctx.groups.leave(groupId, who.userId);
      const wasOnline = await isUserIn(ctx, Rooms.group(groupId), who.userId);
      ctx.io.in(Rooms.user(who.userId)).socketsLeave([Rooms.group(groupId), Rooms.groupWatchers(groupId)]);
      socket.leave(Rooms.group(groupId));
      if (wasOnline) await groupPresenceEvent(ctx, groupId, who.userId, who.userData, 'offline');
      return 'ok';
    });

    handle(ctx, Call.SUBSCRIBE_GROUP_PRESENCE, 'write', async (socket, payload) => {
      const groupIds = validateIdArray(payload.groupIds, 'groupIds');
      for (const groupId of groupIds) await requireMember(groupId, userOf(socket));
      for (const groupId of groupIds) socket.join(Rooms.groupWatchers(groupId));
      return 'ok';
    });

    handle(ctx, Call.UNSUBSCRIBE_GROUP_PRESENCE, 'write', async (socket, payload) => {
      socket.leave(Rooms.groupWatchers(validateId(payload.groupId, 'groupId')));
      return 'ok';
    });

    handle(ctx, Call.SUBSCRIBE_USER_PRESENCE, 'write', async (socket, payload) => {
      for (const userId of validateIdArray(payload.userIds, 'userIds')) socket.join(Rooms.userWatchers(userId));
      return 'ok';
    });

    handle(ctx, Call.UNSUBSCRIBE_USER_PRESENCE, 'write', async (socket, payload) => {
      socket.leave(Rooms.userWatchers(validateId(payload.userId, 'userId')));
      return 'ok';
    });

    handle(ctx, Call.IM_HERE_NOW, 'read', async (_socket, payload) => {
      const userIds = validateIdArray(payload.userIds, 'userIds');
      const online: { userId: string; userData: string }[] = [];
      for (const userId of userIds) {
        const [member] = await membersOf(ctx, Rooms.user(userId));
        if (member) online.push({ userId: member.id, userData: member.userData });
      }
      return online;
    });

    /** The group's members online now: a member asks, and only current members are counted. */
    async function onlineMembers(socket: MessagingSocket, groupId: string) {
      const members = new Set(await groupMembers(groupId, userOf(socket)));
      return (await membersOf(ctx, Rooms.group(groupId))).filter((member) => members.has(member.id));
    }

    handle(ctx, Call.IM_GROUP_HERE_NOW, 'read', async (socket, payload) => {
      const online = await onlineMembers(socket, validateId(payload.groupId, 'groupId'));
      return online.map((member) => ({ userId: member.id, userData: member.userData }));
    });

    handle(ctx, Call.IM_GROUP_ONLINE_COUNT, 'read', async (socket, payload) => {
      const groupId = validateId(payload.groupId, 'groupId');
      return { groupId, onlineCount: (await onlineMembers(socket, groupId)).length };
    });
  }

  async function sendSystem(input: SystemMessage): Promise<SentSystemMessage[]> {
    const senderId = validateId(input.senderId ?? SYSTEM_SENDER, 'senderId');
    const recipients = Array.isArray(input.to) ? validateIdArray(input.to, 'to') : [validateId(input.to, 'to')];
    const senderData = JSON.stringify(input.senderData ?? {});
    const { type, payload } = validateImPayload(
      input.type,
      typeof input.payload === 'string' ? input.payload : JSON.stringify(input.payload),
      ctx.config.limits.payloadBytes,
    );
    const notification = input.notification ? validateNotification(input.notification) : undefined;
    const nt = notification ? { t: notification.title, c: notification.body, badge: notification.badge } : undefined;
    const sent: SentSystemMessage[] = [];
    for (const userId of recipients) {
      const key = conversationKey(Scene.SYSTEM, senderId, userId);
      const { row } = await store({
        id: randomUUID(),
        scene: Scene.SYSTEM,
        conversation: key,
        senderId,
        senderData,
        receiver: userId,
        type,
        payload,
        notification: nt,
        receivers: [userId],
      });
      const ts = Number(row.ts);
      await upsertConversation(userId, Scene.SYSTEM, senderId, '', key, ts, senderData);
      deliver(row, [Rooms.user(userId)]);
      if (notification) {
        const source = { scene: Scene.SYSTEM, senderId, messageId: row.id };
        ctx.external(() => ctx.push.notify({ kind: 'user', id: userId }, notification, source));
      }
      sent.push({ userId, messageId: row.id, timestamp: ts });
    }
    return sent;
  }

  registerRequests();

  const service: ImService = {
    sendSystem,
    stop() {
      for (const timer of redeliveryTimers) clearInterval(timer);
      redeliveryTimers.clear();
      if (ackFlush) clearTimeout(ackFlush);
      void flushAcks();
    },
    store,
    deliver,
    upsertConversation,
    offsets,
    lastMessage,
    setCsSender(sender) {
      sendCs = sender;
    },
  };
  return service;
}

/** A CS conversation has ended when its last message is an end, or a transfer to someone other than the viewer. */
export function csConversationEnded(last: ImMessageRow, viewer: string): boolean {
  if (last.type === CsMessageType.END) return true;
  if (last.type === CsMessageType.TRANSFER) {
    const payload = JSON.parse(last.payload) as { transferTo?: { id?: string } };
    return payload.transferTo?.id !== viewer;
  }
  return false;
}

/** Whether the shop made this user an agent of the team (msg_cs_assignment, edited by admins). */
export async function isAssignedAgent(ctx: MessagingContext, teamId: string, userId: string): Promise<boolean> {
  const row = await ctx.db
    .selectFrom('msg_cs_assignment')
    .select('agent_id')
    .where('team_id', '=', teamId)
    .where('agent_id', '=', userId)
    .executeTakeFirst();
  return row !== undefined;
}

export type SendCs = (
  ctx: MessagingContext,
  im: ImService,
  socket: MessagingSocket,
  to: string,
  rawTeamId: unknown,
  toData: Record<string, unknown>,
  type: string,
  payload: string,
  id: string,
  nt: Record<string, unknown> | undefined,
) => Promise<{ timestamp: number; sessionId: string }>;
