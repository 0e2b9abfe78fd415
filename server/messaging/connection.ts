import { randomBytes } from 'node:crypto';
import type { AppKeyConfig } from './config';
import { type MessagingContext, type MessagingSocket, Reply, handle, identity } from './context';
import { verifyOtp } from './otp';
import { channelPresenceEvent, isUserIn } from './presence';
import { RequestError, Rooms, Text } from './protocol';
import { isObject, validateConnectUser } from './validate';

/** How long a connected session's record lives without a disconnect (a crashed process never sends one). */
const CONNECTED_SESSION_TTL_MS = 24 * 60 * 60_000;

export interface ConnectionHooks {
  /** Runs after a successful authorize, once the socket carries its identity. */
  authorized: ((socket: MessagingSocket) => Promise<void>)[];
  /** Runs after the socket is gone, with the rooms it was in. */
  disconnected: ((socket: MessagingSocket, rooms: Set<string>) => Promise<void>)[];
}

const newToken = () => randomBytes(12).toString('hex');

function findAppKey(keys: AppKeyConfig[], appkey: unknown): AppKeyConfig | undefined {
  return typeof appkey === 'string' ? keys.find((key) => key.key === appkey) : undefined;
}

export async function saveSession(ctx: MessagingContext, socket: MessagingSocket, ttlMs = CONNECTED_SESSION_TTL_MS) {
  const who = identity(socket);
  const channels: Record<string, boolean> = {};
  for (const room of socket.rooms) {
    if (room.startsWith('ch:')) channels[room.slice(3)] = socket.rooms.has(Rooms.channelMembers(room.slice(3)));
  }
  await ctx.sessions.save(who.sid, { userId: who.userId, channels }, ttlMs);
}

export function registerConnection(ctx: MessagingContext, socket: MessagingSocket, hooks: ConnectionHooks): void {
  handle(ctx, socket, 'authorize', 'none', async (_socket, payload) => {
    const key = findAppKey(ctx.config.appKeys, payload.appkey);
    if (!key) throw new RequestError(401, Text.INVALID_APPKEY);
    const modules = Array.isArray(payload.modules) ? payload.modules.map((m: unknown) => String(m).toUpperCase()) : [];
    const user = validateConnectUser(payload.userId, payload.userData, modules.includes('IM'), payload.wxmpId);
    const previous =
      typeof payload.sid === 'string' && payload.sid !== '' ? await ctx.sessions.load(payload.sid) : null;
    const resumable = previous !== null && previous.userId === user.userId;
    // A live session was opened with a valid otp; the client resends its original (maybe expired) otp on reconnect.
    if (ctx.config.requireOtp && !user.anonymous && !resumable) {
      const claims = verifyOtp(payload.otp, ctx.config.otpSecret);
      if (claims?.userId !== user.userId) throw new RequestError(401, Text.NO_PERMISSION);
    }
    const current = identity(socket);
    if (current.authorized) {
      // A resent authorize (the client retries until acked) answers the same session again.
      if (current.userId !== user.userId) throw new RequestError(401, Text.NO_PERMISSION);
      return new Reply(authorizeAnswer(current.sid, payload.sm, key));
    }

    const sid = resumable ? (payload.sid as string) : newToken();
    const channels = resumable ? previous.channels : {};
    socket.data = {
      userId: user.userId,
      userData: user.userData,
      anonymous: user.anonymous,
      sid,
      publish: key.publish,
      subscribe: key.subscribe,
      modules,
      authorized: true,
    };
    if (!user.anonymous) socket.join(Rooms.user(user.userId));
    for (const [channel, presence] of Object.entries(channels)) {
      socket.join(Rooms.channel(channel));
      if (presence) socket.join(Rooms.channelMembers(channel));
    }
    await saveSession(ctx, socket);
    if (!user.anonymous && isObject(payload.wxmpId)) {
      const { appid, openid } = payload.wxmpId as { appid: string; openid: string };
      await ctx.db
        .insertInto('msg_user_wxmp')
        .values({ user_id: user.userId, appid: String(appid), openid })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ appid: String(appid), openid }))
        .execute();
    }
    for (const [channel, presence] of Object.entries(channels)) {
      if (presence) await channelPresenceEvent(ctx, channel, 'join', user);
    }
    // After the ack leaves, so the client is connected before pending messages arrive.
    setImmediate(() => {
      Promise.all(hooks.authorized.map((hook) => hook(socket))).catch((err) =>
        ctx.log.error({ err }, 'messaging authorize hook failed'),
      );
    });
    return new Reply(authorizeAnswer(sid, payload.sm, key));
  });

  handle(ctx, socket, 'manualDisconnect', 'none', async () => {
    const who = identity(socket);
    // A deliberate disconnect ends the session: the next connect starts a new sid.
    if (who.authorized) {
      await ctx.sessions.remove(who.sid);
      who.sid = '';
    }
    return 'ok';
  });

  let roomsAtDisconnect = new Set<string>();
  socket.on('disconnecting', () => {
    roomsAtDisconnect = new Set(socket.rooms);
  });
  socket.on('disconnect', () => {
    const who = identity(socket);
    if (!who.authorized) return;
    (async () => {
      if (who.sid) {
        const channels: Record<string, boolean> = {};
        for (const room of roomsAtDisconnect) {
          if (room.startsWith('ch:'))
            channels[room.slice(3)] = roomsAtDisconnect.has(Rooms.channelMembers(room.slice(3)));
        }
        await ctx.sessions.save(who.sid, { userId: who.userId, channels }, ctx.config.sessionWindowMs);
      }
      for (const room of roomsAtDisconnect) {
        if (!room.startsWith('chm:')) continue;
        if (!(await isUserIn(ctx, room, who.userId))) await channelPresenceEvent(ctx, room.slice(4), 'leave', who);
      }
      for (const hook of hooks.disconnected) await hook(socket, roomsAtDisconnect);
    })().catch((err) => ctx.log.error({ err }, 'messaging disconnect cleanup failed'));
  });
}

function authorizeAnswer(sid: string, sm: unknown, key: AppKeyConfig) {
  return {
    resultCode: 200,
    code: 200,
    content: 'ok',
    sid,
    sm: typeof sm === 'string' && sm !== '' ? sm : newToken(),
    enablePublish: key.publish,
    enableSubscribe: key.subscribe,
  };
}
