import type { MessagingContext } from './context';
import { Push, Rooms, parseJsonObject } from './protocol';

/**
 * Presence is read from the socket.io rooms themselves (`fetchSockets` spans every process when the
 * Redis adapter is on), so there is no second copy of who is online to drift out of date.
 */
export interface Member {
  id: string;
  data: Record<string, unknown>;
  userData: string;
}

export async function membersOf(ctx: MessagingContext, room: string): Promise<Member[]> {
  const sockets = await ctx.io.in(room).fetchSockets();
  const members = new Map<string, Member>();
  for (const socket of sockets) {
    const { userId, userData } = socket.data as { userId?: string; userData?: string };
    if (!userId || members.has(userId)) continue;
    members.set(userId, { id: userId, data: parseJsonObject(userData), userData: userData ?? '{}' });
  }
  return [...members.values()];
}

export async function isUserIn(ctx: MessagingContext, room: string, userId: string): Promise<boolean> {
  const sockets = await ctx.io.in(room).fetchSockets();
  return sockets.some((socket) => (socket.data as { userId?: string }).userId === userId);
}

export async function channelPresenceEvent(
  ctx: MessagingContext,
  channel: string,
  action: 'join' | 'leave',
  member: { userId: string; userData: string },
): Promise<void> {
  const amount = (await membersOf(ctx, Rooms.channelMembers(channel))).length;
  ctx.io.to(Rooms.channelWatchers(channel)).emit(Push.PRESENCE_EVENT, {
    channel,
    action,
    member: { id: member.userId, data: parseJsonObject(member.userData) },
    time: Date.now(),
    amount,
  });
}

export function userPresenceEvent(
  ctx: MessagingContext,
  userId: string,
  userData: string,
  action: 'online' | 'offline',
) {
  const events = [{ time: Date.now(), action, userId, userData }];
  ctx.io.to(Rooms.userWatchers(userId)).emit(Push.USER_PRESENCE, { c: JSON.stringify({ events }) });
}

export async function groupPresenceEvent(
  ctx: MessagingContext,
  groupId: string,
  userId: string,
  userData: string,
  action: 'online' | 'offline',
): Promise<void> {
  const userAmount = (await membersOf(ctx, Rooms.group(groupId))).length;
  const events = [{ time: Date.now(), action, userId, userData }];
  ctx.io
    .to(Rooms.groupWatchers(groupId))
    .emit(Push.GROUP_PRESENCE, { c: JSON.stringify({ events, userAmount, groupId }) });
}
