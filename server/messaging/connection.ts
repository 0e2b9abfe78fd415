import { randomBytes } from 'node:crypto';
import type { AppKeyConfig } from './config';
import { type MessagingContext, type MessagingSocket, Reply, handle, identity } from './context';
import type { Revocation } from './control';
import { verifyOtp } from './otp';
import { channelPresenceEvent, isUserIn } from './presence';
import { Call, type Proof, RequestError, Rooms, Text } from './protocol';
import type { SessionRecord } from './state';
import { isObject, validateConnectUser } from './validate';

/** How long a connected session's record lives without a disconnect (a crashed process never sends one). */
const CONNECTED_SESSION_TTL_MS = 24 * 60 * 60_000;

/**
 * A session resumes on reconnect without a fresh proof (the client resends its original, maybe expired,
 * otp) only while the proof it was opened with is younger than this and not revoked.
 */
export const SESSION_PROOF_MAX_AGE_MS = CONNECTED_SESSION_TTL_MS;

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

/** What a reconnect under this socket's sid resumes: the user, its channels (with presence or not), the proof. */
function sessionRecord(socket: MessagingSocket, rooms: Set<string> = socket.rooms): SessionRecord {
  const who = identity(socket);
  const channels: Record<string, boolean> = {};
  for (const room of rooms) {
    if (room.startsWith('ch:')) channels[room.slice(3)] = rooms.has(Rooms.channelMembers(room.slice(3)));
  }
  return { userId: who.userId, channels, proof: who.proof ? { ...who.proof } : null };
}

/** Stores a connected socket's session where other processes may need it; one process reads it off the socket. */
export async function saveSession(ctx: MessagingContext, socket: MessagingSocket) {
  if (!ctx.sessions.keepsConnected) return;
  await ctx.sessions.save(identity(socket).sid, sessionRecord(socket), CONNECTED_SESSION_TTL_MS);
}

/** The session a reconnect names: its socket here if still connected (its drop not noticed yet), else the store. */
async function loadSession(ctx: MessagingContext, sid: string): Promise<SessionRecord | null> {
  const live = ctx.connected.get(sid);
  if (live?.connected) return sessionRecord(live);
  return ctx.sessions.load(sid);
}

/**
 * The proof this authorize is admitted with. A reconnect resumes its session (sid) when it resends the very
 * proof the session was opened with (the client keeps it; it may have expired since) and that proof still
 * stands: not revoked, younger than SESSION_PROOF_MAX_AGE_MS. Anything else needs a valid, unexpired otp that
 * names the user and is not revoked. Anonymous connections and the development switch (MESSAGING_REQUIRE_OTP=0)
 * carry none.
 */
async function admit(
  ctx: MessagingContext,
  userId: string,
  otp: unknown,
  previous: SessionRecord | null,
): Promise<{ proof: Proof | null; resumed: boolean }> {
  const standing = async (proof: Proof) =>
    Date.now() - proof.issuedAt < SESSION_PROOF_MAX_AGE_MS &&
    !(await ctx.control.isRevoked(userId, proof.sessionRef, proof.issuedAt));
  const unproven = userId === '' || !ctx.config.requireOtp;
  if (previous !== null && previous.userId === userId) {
    if (unproven) return { proof: previous.proof, resumed: true };
    const resent = verifyOtp(otp, ctx.config.otpSecret, Date.now(), true);
    const opened = previous.proof;
    if (
      opened !== null &&
      resent?.userId === userId &&
      resent.sessionRef === opened.sessionRef &&
      resent.issuedAt === opened.issuedAt &&
      (await standing(opened))
    ) {
      return { proof: opened, resumed: true };
    }
  }
  if (unproven) return { proof: null, resumed: false };
  const claims = verifyOtp(otp, ctx.config.otpSecret);
  if (claims?.userId !== userId) throw new RequestError(401, Text.NO_PERMISSION);
  const proof = { sessionRef: claims.sessionRef, issuedAt: claims.issuedAt, wxmp: claims.wxmp };
  if (!(await standing(proof))) throw new RequestError(401, Text.NO_PERMISSION);
  return { proof, resumed: false };
}

/** Closes every open messaging session a revocation names, in every process (the adapter carries it). */
export function closeRevoked(ctx: MessagingContext, revocation: Revocation): void {
  const room = revocation.sessionRef ? Rooms.proof(revocation.sessionRef) : Rooms.user(revocation.userId);
  ctx.io.in(room).disconnectSockets(true);
}

/** The rooms each leaving socket was in (`disconnect` comes after they are emptied). */
const roomsAtDisconnect = new WeakMap<MessagingSocket, Set<string>>();

/** authorize, manualDisconnect and what a disconnect cleans up, registered once per server. */
export function registerConnection(ctx: MessagingContext, hooks: ConnectionHooks): void {
  handle(ctx, Call.AUTHORIZE, 'none', async (socket, payload) => {
    const key = findAppKey(ctx.config.appKeys, payload.appkey);
    if (!key) throw new RequestError(401, Text.INVALID_APPKEY);
    const modules = Array.isArray(payload.modules) ? payload.modules.map((m: unknown) => String(m).toUpperCase()) : [];
    const user = validateConnectUser(payload.userId, payload.userData, payload.wxmpId);
    const previous =
      typeof payload.sid === 'string' && payload.sid !== '' && payload.sid.length <= 64
        ? await loadSession(ctx, payload.sid)
        : null;
    const { proof, resumed: resumable } = await admit(ctx, user.userId, payload.otp, previous);
    const current = identity(socket);
    if (current.authorized) {
      // A resent authorize (the client retries until acked) answers the same session again.
      if (current.userId !== user.userId) throw new RequestError(401, Text.NO_PERMISSION);
      return new Reply(authorizeAnswer(current.sid, payload.sm, key));
    }

    const sid = resumable ? (payload.sid as string) : newToken();
    const channels = resumable && previous ? previous.channels : {};
    socket.data = {
      userId: user.userId,
      userData: user.userData,
      anonymous: user.anonymous,
      sid,
      publish: key.publish,
      subscribe: key.subscribe,
      modules,
      authorized: true,
      proof,
    };
    if (!user.anonymous) socket.join(Rooms.user(user.userId));
    if (proof?.sessionRef) socket.join(Rooms.proof(proof.sessionRef));
    for (const [channel, presence] of Object.entries(channels)) {
      socket.join(Rooms.channel(channel));
      if (presence) socket.join(Rooms.channelMembers(channel));
    }
    // Not for a socket gone while it was admitted: its leaving ran already and would never remove it.
    if (socket.connected) ctx.connected.set(sid, socket);
    await saveSession(ctx, socket);
    // With identity proofs on, only the WeChat identity the shop vouched for is recorded: a client naming another
    // person's openid would otherwise have that person notified of its messages.
    const vouched = (appid: string, openid: string) => !ctx.config.requireOtp || proof?.wxmp === `${appid}:${openid}`;
    if (
      !user.anonymous &&
      isObject(payload.wxmpId) &&
      vouched(String(payload.wxmpId.appid), String(payload.wxmpId.openid))
    ) {
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

  handle(ctx, Call.MANUAL_DISCONNECT, 'none', async (socket) => {
    const who = identity(socket);
    // A deliberate disconnect ends the session: the next connect starts a new sid.
    if (who.authorized) {
      if (ctx.connected.get(who.sid) === socket) ctx.connected.delete(who.sid);
      await ctx.sessions.remove(who.sid);
      who.sid = '';
    }
    return 'ok';
  });

  ctx.routes.onLeaving((socket) => {
    roomsAtDisconnect.set(socket, new Set(socket.rooms));
  });
  ctx.routes.onGone((socket) => {
    const rooms = roomsAtDisconnect.get(socket) ?? new Set<string>();
    roomsAtDisconnect.delete(socket);
    const who = identity(socket);
    if (!who.authorized) return;
    if (ctx.connected.get(who.sid) === socket) ctx.connected.delete(who.sid);
    (async () => {
      // Kept for a reconnect within the window; a newer socket resumed under the same sid is read off itself.
      if (who.sid) await ctx.sessions.save(who.sid, sessionRecord(socket, rooms), ctx.config.sessionWindowMs);
      for (const room of rooms) {
        if (!room.startsWith('chm:')) continue;
        if (!(await isUserIn(ctx, room, who.userId))) await channelPresenceEvent(ctx, room.slice(4), 'leave', who);
      }
      for (const hook of hooks.disconnected) await hook(socket, rooms);
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
