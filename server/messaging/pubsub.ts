import { randomUUID } from 'node:crypto';
import { saveSession } from './connection';
import { type MessagingContext, type MessagingSocket, Reply, handle, identity } from './context';
import { channelPresenceEvent, isUserIn, membersOf } from './presence';
import { Call, Limits, Push, Rooms, Text, badRequest, ok } from './protocol';
import {
  validateChannel,
  validateChannels,
  validateLimit,
  validateNotification,
  validatePublishContent,
  validateQos,
  validateWxmpTemplateMsg,
} from './validate';

const QOS1_RETRY_MS = 1700;
const QOS1_ATTEMPTS = 5;
const PRESENCE_ANONYMOUS = Text.PRESENCE_NEEDS_ID;

type PendingQos = Map<string, NodeJS.Timeout>;
const pendingBySocket = new WeakMap<MessagingSocket, PendingQos>();

/** qos 1: each local subscriber gets the message again until it answers `ack` with the guid (at most 5 times). */
export function trackQos1(ctx: MessagingContext, channel: string, body: Record<string, unknown>): void {
  const ids = ctx.io.of('/').adapter.rooms.get(Rooms.channel(channel));
  if (!ids) return;
  for (const id of ids) {
    const socket = ctx.io.of('/').sockets.get(id) as MessagingSocket | undefined;
    if (!socket) continue;
    let pending = pendingBySocket.get(socket);
    if (!pending) {
      pending = new Map();
      pendingBySocket.set(socket, pending);
    }
    const guid = String(body.i);
    let attempts = 1;
    const retry = () => {
      if (!socket.connected || attempts >= QOS1_ATTEMPTS) {
        pending?.delete(guid);
        return;
      }
      attempts += 1;
      socket.emit(Push.MESSAGE, body);
      pending?.set(guid, setTimeout(retry, QOS1_RETRY_MS));
    };
    pending.set(guid, setTimeout(retry, QOS1_RETRY_MS));
  }
}

function clearPending(socket: MessagingSocket): void {
  const pending = pendingBySocket.get(socket);
  if (!pending) return;
  for (const timer of pending.values()) clearTimeout(timer);
  pending.clear();
}

/** The pub/sub requests, registered once per server (ctx.routes serves every socket). */
export function registerPubSub(ctx: MessagingContext): void {
  handle(ctx, Call.SUBSCRIBE, 'read', async (socket, payload) => {
    const channels = validateChannels(payload.channel, payload.channels);
    let presence = false;
    if (payload.presence !== undefined && payload.presence !== null) {
      const enable = (payload.presence as { enable?: unknown }).enable;
      if (typeof enable !== 'boolean') throw badRequest(Text.PRESENCE_ENABLE_BOOLEAN);
      if (enable && identity(socket).anonymous) throw badRequest(PRESENCE_ANONYMOUS);
      presence = enable;
    }
    const who = identity(socket);
    for (const channel of channels) {
      socket.join(Rooms.channel(channel));
      if (!presence) continue;
      const alreadyMember = await isUserIn(ctx, Rooms.channelMembers(channel), who.userId);
      socket.join(Rooms.channelMembers(channel));
      if (!alreadyMember) await channelPresenceEvent(ctx, channel, 'join', who);
    }
    await saveSession(ctx, socket);
    return 'ok';
  });

  handle(ctx, Call.UNSUBSCRIBE, 'read', async (socket, payload) => {
    const channel = validateChannel(payload.channel);
    if (!socket.rooms.has(Rooms.channel(channel))) throw badRequest(Text.notSubscribed(channel));
    const wasMember = socket.rooms.has(Rooms.channelMembers(channel));
    socket.leave(Rooms.channel(channel));
    socket.leave(Rooms.channelMembers(channel));
    const who = identity(socket);
    if (wasMember && !(await isUserIn(ctx, Rooms.channelMembers(channel), who.userId))) {
      await channelPresenceEvent(ctx, channel, 'leave', who);
    }
    await saveSession(ctx, socket);
    return 'ok';
  });

  handle(ctx, Call.PUBLISH, 'write', async (socket, payload) => {
    const channel = validateChannel(payload.channel);
    const content = validatePublishContent(payload.content);
    const qos = validateQos(payload.q);
    const notification = payload.nt !== undefined && payload.nt !== null ? validateNotification(payload.nt) : undefined;
    const wxmp = payload.wxmpTemplateMsg
      ? validateWxmpTemplateMsg(payload.wxmpTemplateMsg, ctx.config.wechat.templateIds)
      : undefined;
    const guid = typeof payload.guid === 'string' && payload.guid !== '' ? payload.guid.slice(0, 64) : randomUUID();
    const who = identity(socket);
    // The flood limits before anything is stored: a flood costs a counter, never a write. A resent guid counts too
    // (the client resends only a publish unanswered for 1.7 s).
    await ctx.limits.message(socket.id, who.userId);
    if (wxmp) await ctx.limits.template(who.userId || socket.id);
    const time = ctx.now();
    // The history row's guid is the message's identity across processes: a resent guid (`retried`) that was already
    // delivered inserts nothing and is answered the same, delivering nothing. (One statement on the way to the push,
    // not a look-up and an insert: every subscriber waits for it.)
    const inserted = await ctx.db
      .insertInto('msg_pubsub_message')
      .values({ guid, channel, content, sender_id: who.userId, created_at: time })
      .onConflict((oc) => oc.column('guid').doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return new Reply(ok('ok', { publishGuid: guid }));
    // `a` (the sender asked for qos 1) only when set: every subscriber receives the body, and ten bytes of `"a":false`
    // were a tenth of a short message's push. A client reads a missing `a` as false.
    const body: Record<string, unknown> = { n: channel, c: content, t: time, i: guid };
    if (qos === 1) body.a = true;
    if (notification) {
      body.nt = { t: notification.title, c: notification.body, sound: notification.sound, badge: notification.badge };
    }
    ctx.io.to(Rooms.channel(channel)).emit(Push.MESSAGE, body);
    if (qos === 1) {
      trackQos1(ctx, channel, body);
      if (ctx.config.redisUrl) ctx.io.serverSideEmit('qos1', channel, body);
    }
    if (notification)
      ctx.external(() => ctx.push.notify({ kind: 'channel', id: channel }, notification, { channel, content }));
    if (wxmp) ctx.external(() => ctx.wechat.send({ kind: 'channel', id: channel }, wxmp));
    return new Reply(ok('ok', { publishGuid: guid }));
  });

  ctx.routes.on(Push.ACK, (socket, payload) => {
    const guid = (payload as { publishGuid?: unknown } | null)?.publishGuid;
    const pending = pendingBySocket.get(socket);
    if (typeof guid !== 'string' || !pending) return;
    clearTimeout(pending.get(guid));
    pending.delete(guid);
  });
  ctx.routes.onGone(clearPending);

  handle(ctx, Call.HISTORY, 'read', async (_socket, payload) => {
    const channel = validateChannel(payload.channel);
    const limit = validateLimit(payload.limit, Limits.HISTORY_DEFAULT, Limits.HISTORY_MAX);
    const rows = await ctx.db
      .selectFrom('msg_pubsub_message')
      .select(['content', 'created_at'])
      .where('channel', '=', channel)
      .orderBy('created_at', 'desc')
      .limit(limit)
      .execute();
    return { messages: rows.reverse().map((row) => ({ time: Number(row.created_at), content: row.content })) };
  });

  handle(ctx, Call.SET_IOS_BADGE, 'write', async (socket, payload) => {
    const badge = payload.badge;
    if (!Number.isInteger(badge) || badge < 0) throw badRequest('badge must be an integer greater than or equal to 0.');
    const who = identity(socket);
    if (who.anonymous) return 'ok';
    ctx.external(() => ctx.push.notify({ kind: 'user', id: who.userId }, { badge: String(badge) }, { kind: 'badge' }));
    return 'ok';
  });

  handle(ctx, Call.PRESENCE_SUBSCRIBE, 'read', async (socket, payload) => {
    const channel = validateChannel(payload.channel);
    if (identity(socket).anonymous) throw badRequest(PRESENCE_ANONYMOUS);
    socket.join(Rooms.channelWatchers(channel));
    return 'ok';
  });

  handle(ctx, Call.PRESENCE_UNSUBSCRIBE, 'write', async (socket, payload) => {
    const channel = validateChannel(payload.channel);
    socket.leave(Rooms.channelWatchers(channel));
    return 'ok';
  });

  handle(ctx, Call.PRESENCE_HERE_NOW, 'read', async (_socket, payload) => {
    const channel = validateChannel(payload.channel);
    const limit = validateLimit(payload.limit, Limits.HERE_NOW_DEFAULT);
    const members = await membersOf(ctx, Rooms.channelMembers(channel));
    return { members: members.slice(0, limit).map(({ id, data }) => ({ id, data })), amount: members.length };
  });
}
