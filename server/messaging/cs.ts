import { randomUUID } from 'node:crypto';
import type { ConnectionHooks } from './connection';
import { type MessagingContext, type MessagingSocket, handle, identity, userOf } from './context';
import { type ImMessageRow, type ImService, abbreviate, isAssignedAgent } from './im';
import {
  Call,
  CsMessageType,
  type CsStatus,
  Push,
  RequestError,
  Rooms,
  Scene,
  Text,
  badRequest,
  conversationKey,
} from './protocol';
import { checkDataSize, isObject, validateId } from './validate';

/**
 * Customer service: agents go online per team, customers write to the team, and a session per
 * (team, customer) moves FREE -> PENDING (a customer message) -> ACCEPTED (accept or transfer) -> FREE (end).
 * Pushes follow visibility: while nobody has accepted, every online agent of the team sees the
 * customer; once accepted, only that agent does (plus agents watching the live session).
 * Only users the shop assigned to a team (msg_cs_assignment, edited by admins) act as its agents: go
 * online, accept, transfer, end, read its conversations or change its data. A team exists while it has one.
 */
interface SessionRow {
  team_id: string;
  customer_id: string;
  status: CsStatus;
  session_id: string;
  start: number | string;
  agent_id: string | null;
  agent_data: string | null;
  customer_data: string;
}

const NOT_AN_AGENT = Text.NOT_AN_AGENT;
const ACCEPTED_BY_OTHER = 'the customer has been accepted by another agent.';

function parseObjectJson(raw: unknown, message: string, name: string): string {
  if (typeof raw !== 'string') {
    if (isObject(raw)) return checkDataSize(JSON.stringify(raw), name);
    throw badRequest(message);
  }
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw badRequest(message);
  }
  if (!isObject(value)) throw badRequest(message);
  return checkDataSize(raw, name);
}

export function registerCs(ctx: MessagingContext, hooks: ConnectionHooks, im: ImService) {
  const { db } = ctx;

  async function loadSession(teamId: string, customerId: string): Promise<SessionRow | undefined> {
    return (await db
      .selectFrom('msg_cs_session')
      .selectAll()
      .where('team_id', '=', teamId)
      .where('customer_id', '=', customerId)
      .executeTakeFirst()) as SessionRow | undefined;
  }

  async function saveSession(row: SessionRow): Promise<void> {
    const { team_id, customer_id, ...rest } = row;
    await db
      .insertInto('msg_cs_session')
      .values(row)
      .onConflict((oc) => oc.columns(['team_id', 'customer_id']).doUpdateSet(rest))
      .execute();
  }

  async function agentRow(teamId: string, agentId: string) {
    return db
      .selectFrom('msg_cs_agent')
      .selectAll()
      .where('team_id', '=', teamId)
      .where('agent_id', '=', agentId)
      .executeTakeFirst();
  }

  /** The agent's data for a team the shop assigned them to (online, when asked), else a refusal. */
  async function requireAgent(teamId: string, agentId: string, online = false) {
    if (!(await isAssignedAgent(ctx, teamId, agentId))) throw new RequestError(401, NOT_AN_AGENT);
    const agent = await agentRow(teamId, agentId);
    if (online && agent?.online !== 1) throw new RequestError(401, NOT_AN_AGENT);
    return { agent_data: (agent?.agent_data as string | undefined) ?? '{}', team_data: agent?.team_data ?? '{}' };
  }

  /** The online agents of a team who are still assigned to it. */
  function onlineAgents() {
    return db
      .selectFrom('msg_cs_agent as s')
      .innerJoin('msg_cs_assignment as a', (join) =>
        join.onRef('a.team_id', '=', 's.team_id').onRef('a.agent_id', '=', 's.agent_id'),
      )
      .where('s.online', '=', 1);
  }

  /** Accepted by another agent who still serves the team: nobody else may take the customer over. */
  async function servedByOther(session: SessionRow | undefined, me: string): Promise<boolean> {
    if (session?.status !== 'ACCEPTED' || !session.agent_id || session.agent_id === me) return false;
    return isAssignedAgent(ctx, session.team_id, session.agent_id);
  }

  async function teamData(teamId: string): Promise<string> {
    const row = await db
      .selectFrom('msg_cs_agent')
      .select('team_data')
      .where('team_id', '=', teamId)
      .executeTakeFirst();
    return (row?.team_data as string | undefined) ?? '{}';
  }

  function statusOf(session: SessionRow | undefined) {
    if (!session || session.status === 'FREE') return { status: 'FREE' as CsStatus };
    const status: Record<string, unknown> = {
      status: session.status,
      start: Number(session.start),
      sessionId: session.session_id,
    };
    if (session.status === 'ACCEPTED' && session.agent_id) {
      status.agent = { id: session.agent_id, data: session.agent_data ?? '{}' };
    }
    return status;
  }

  async function systemMessage(
    socket: MessagingSocket,
    teamId: string,
    customerId: string,
    type: string,
    payload: Record<string, unknown>,
    session: SessionRow,
    agentData: string,
    receivers: string[],
  ): Promise<ImMessageRow> {
    const { row } = await im.store({
      id: randomUUID().replace(/-/g, ''),
      scene: Scene.CS,
      conversation: conversationKey(Scene.CS, teamId, customerId),
      senderId: identity(socket).userId,
      senderData: agentData,
      receiver: customerId,
      teamId,
      customerId,
      type,
      payload: JSON.stringify(payload),
      sessionId: session.session_id,
      accepted: session.status === 'ACCEPTED',
      receivers,
    });
    return row;
  }

  const sendCs = async (
    _ctx: MessagingContext,
    _im: ImService,
    socket: MessagingSocket,
    to: string,
    rawTeamId: unknown,
    toData: Record<string, unknown>,
    type: string,
    payload: string,
    id: string,
    nt: Record<string, unknown> | undefined,
  ) => {
    const who = identity(socket);
    const teamId = validateId(rawTeamId, 'teamId');
    const byCustomer = to === teamId;
    const customerId = byCustomer ? who.userId : to;
    const key = conversationKey(Scene.CS, teamId, customerId);
    if (byCustomer) {
      const team = await db
        .selectFrom('msg_cs_assignment')
        .select('team_id')
        .where('team_id', '=', teamId)
        .executeTakeFirst();
      if (!team) throw badRequest(`team ${teamId} does not exist.`);
    }

    let session = await loadSession(teamId, customerId);
    let senderData = who.userData;
    if (byCustomer) {
      if (!session || session.status === 'FREE') {
        const start = Date.now();
        session = {
          team_id: teamId,
          customer_id: customerId,
          status: 'PENDING',
          session_id: String(start),
          start,
          agent_id: null,
          agent_data: null,
          customer_data: who.userData,
        };
      } else {
        session = { ...session, customer_data: who.userData };
      }
      await saveSession(session);
    } else {
      const agent = await requireAgent(teamId, who.userId);
      senderData = agent.agent_data;
      if (await servedByOther(session, who.userId)) throw new RequestError(401, ACCEPTED_BY_OTHER);
      if (!session) {
        const start = Date.now();
        session = {
          team_id: teamId,
          customer_id: customerId,
          status: 'FREE',
          session_id: String(start),
          start,
          agent_id: null,
          agent_data: null,
          customer_data: JSON.stringify(toData),
        };
        await saveSession(session);
      }
    }
    const { row, created } = await im.store({
      id,
      scene: Scene.CS,
      conversation: key,
      senderId: who.userId,
      senderData,
      receiver: to,
      teamId,
      customerId,
      type,
      payload,
      sessionId: session.session_id,
      accepted: session.status === 'ACCEPTED',
      notification: nt,
      receivers: byCustomer
        ? session.status === 'ACCEPTED' && session.agent_id
          ? [session.agent_id]
          : []
        : [customerId],
    });
    const ts = Number(row.ts);
    if (created) {
      const live = Rooms.live(teamId, customerId);
      if (byCustomer) {
        await im.upsertConversation(customerId, Scene.CS, teamId, teamId, key, ts, JSON.stringify(toData));
        if (session.status === 'ACCEPTED' && session.agent_id) {
          await im.upsertConversation(session.agent_id, Scene.CS, customerId, teamId, key, ts, who.userData);
          im.deliver(row, [Rooms.user(session.agent_id), Rooms.user(who.userId), live], socket.id);
        } else {
          im.deliver(row, [Rooms.team(teamId), Rooms.user(who.userId), live], socket.id);
        }
      } else {
        await im.upsertConversation(who.userId, Scene.CS, customerId, teamId, key, ts, JSON.stringify(toData));
        await im.upsertConversation(customerId, Scene.CS, teamId, teamId, key, ts, await teamData(teamId));
        im.deliver(row, [Rooms.user(customerId), Rooms.user(who.userId), live], socket.id);
      }
    }
    return { timestamp: ts, sessionId: row.session_id as string };
  };
  im.setCsSender(sendCs);

  hooks.authorized.push(async (socket) => {
    const who = identity(socket);
    if (who.anonymous) return;
    const teams = await onlineAgents().select('s.team_id').where('s.agent_id', '=', who.userId).execute();
    for (const { team_id: teamId } of teams) socket.join(Rooms.team(teamId as string));
  });

  /** The shop removed an agent: every socket of theirs leaves the team's rooms, in every process. */
  function agentRemoved(teamId: string, agentId: string): void {
    const rooms = [Rooms.team(teamId)];
    ctx.io.in(Rooms.user(agentId)).socketsLeave(rooms);
    ctx.io
      .in(Rooms.user(agentId))
      .fetchSockets()
      .then(
        (sockets) => {
          for (const socket of sockets) {
            for (const room of socket.rooms) if (room.startsWith(`live:${teamId}:`)) socket.leave(room);
          }
        },
        (err) => ctx.log.error({ err }, 'messaging agent removal failed'),
      );
    ctx.io.to(Rooms.user(agentId)).emit(Push.CS_ONLINE_CHANGED, { teamId, online: false });
  }

  /** The customer-service requests, registered once (ctx.routes serves every socket). */
  function registerRequests() {
    handle(ctx, Call.CS_ONLINE, 'write', async (socket, payload) => {
      const teamId = validateId(payload.teamId, 'teamId');
      const teamJson = parseObjectJson(payload.teamData, 'agentData and teamData require an object', 'teamData');
      const agentJson = parseObjectJson(payload.agentData, 'agentData and teamData require an object', 'agentData');
      await requireAgent(teamId, userOf(socket));
      await db
        .insertInto('msg_cs_agent')
        .values({ team_id: teamId, agent_id: userOf(socket), agent_data: agentJson, team_data: teamJson, online: 1 })
        .onConflict((oc) =>
          oc.columns(['team_id', 'agent_id']).doUpdateSet({ agent_data: agentJson, team_data: teamJson, online: 1 }),
        )
        .execute();
      await db.updateTable('msg_cs_agent').set({ team_data: teamJson }).where('team_id', '=', teamId).execute();
      ctx.io.in(Rooms.user(userOf(socket))).socketsJoin(Rooms.team(teamId));
      ctx.io
        .to(Rooms.user(userOf(socket)))
        .except(socket.id)
        .emit(Push.CS_ONLINE_CHANGED, { teamId, online: true });
      return 'ok';
    });

    handle(ctx, Call.CS_OFFLINE, 'write', async (socket, payload) => {
      const teamId = validateId(payload.teamId, 'teamId');
      await db
        .updateTable('msg_cs_agent')
        .set({ online: 0 })
        .where('team_id', '=', teamId)
        .where('agent_id', '=', userOf(socket))
        .execute();
      ctx.io.in(Rooms.user(userOf(socket))).socketsLeave(Rooms.team(teamId));
      ctx.io
        .to(Rooms.user(userOf(socket)))
        .except(socket.id)
        .emit(Push.CS_ONLINE_CHANGED, { teamId, online: false });
      return 'ok';
    });

    handle(ctx, Call.CS_MY_TEAMS, 'read', async (socket) => {
      const rows = await onlineAgents()
        .select('s.team_id')
        .where('s.agent_id', '=', userOf(socket))
        .orderBy('s.team_id')
        .execute();
      return rows.map((row) => row.team_id);
    });

    handle(ctx, Call.CS_AGENTS, 'read', async (_socket, payload) => {
      const teamId = validateId(payload.teamId, 'teamId');
      const rows = await onlineAgents()
        .select(['s.agent_id', 's.agent_data'])
        .where('s.team_id', '=', teamId)
        .orderBy('s.agent_id')
        .execute();
      return rows.map((row) => ({ id: row.agent_id, data: row.agent_data }));
    });

    handle(ctx, Call.CS_PENDING_CONVERSATION, 'read', async (socket) => {
      const teams = (await onlineAgents().select('s.team_id').where('s.agent_id', '=', userOf(socket)).execute()).map(
        (row) => row.team_id as string,
      );
      if (teams.length === 0) return [];
      const sessions = (await db
        .selectFrom('msg_cs_session')
        .selectAll()
        .where('team_id', 'in', teams)
        .where('status', '=', 'PENDING')
        .execute()) as SessionRow[];
      const list: Record<string, unknown>[] = [];
      for (const session of sessions) {
        const key = conversationKey(Scene.CS, session.team_id, session.customer_id);
        const last = await im.lastMessage(key, userOf(socket));
        if (!last) continue;
        list.push({
          lastMessage: abbreviate(last, ctx.files),
          customerData: session.customer_data,
          userOffsets: await im.offsets(key),
        });
      }
      return list;
    });

    handle(ctx, Call.CS_ACCEPT, 'write', async (socket, payload) => {
      const teamId = validateId(payload.teamId, 'teamId');
      const customer = payload.customer as { id?: unknown; data?: unknown } | undefined;
      if (customer === undefined || customer === null) throw badRequest(Text.CUSTOMER_REQUIRED);
      const customerId = validateId(customer.id, 'customer.id');
      const customerData = parseObjectJson(customer.data, 'customer data must be non-empty object.', 'customer.data');
      if (customerData === '{}') throw badRequest('customer data must be non-empty object.');
      const agent = await requireAgent(teamId, userOf(socket), true);
      const current = await loadSession(teamId, customerId);
      if (await servedByOther(current, userOf(socket))) throw new RequestError(401, ACCEPTED_BY_OTHER);
      const start = Date.now();
      const session: SessionRow = {
        team_id: teamId,
        customer_id: customerId,
        status: 'ACCEPTED',
        session_id: String(start),
        start,
        agent_id: userOf(socket),
        agent_data: agent.agent_data,
        customer_data: customerData,
      };
      await saveSession(session);
      const row = await systemMessage(
        socket,
        teamId,
        customerId,
        CsMessageType.ACCEPT,
        { sessionStart: start },
        session,
        session.agent_data as string,
        [customerId],
      );
      const key = conversationKey(Scene.CS, teamId, customerId);
      const ts = Number(row.ts);
      await im.upsertConversation(userOf(socket), Scene.CS, customerId, teamId, key, ts, customerData);
      await im.upsertConversation(customerId, Scene.CS, teamId, teamId, key, ts, agent.team_data as string);
      im.deliver(
        row,
        [Rooms.user(customerId), Rooms.user(userOf(socket)), Rooms.team(teamId), Rooms.live(teamId, customerId)],
        socket.id,
      );
      return { message: abbreviate(row, ctx.files) };
    });

    handle(ctx, Call.CS_END, 'write', async (socket, payload) => {
      const teamId = validateId(payload.teamId, 'teamId');
      const customerId = validateId(payload.customerId, 'customerId');
      const agent = await requireAgent(teamId, userOf(socket));
      const current = await loadSession(teamId, customerId);
      if (!current || current.status !== 'ACCEPTED' || current.agent_id !== userOf(socket)) {
        throw new RequestError(401, Text.NO_PERMISSION);
      }
      const session: SessionRow = { ...current, status: 'FREE', agent_id: null, agent_data: null };
      await saveSession(session);
      const row = await systemMessage(
        socket,
        teamId,
        customerId,
        CsMessageType.END,
        { sessionStart: Number(current.start) },
        { ...current, status: 'ACCEPTED' },
        agent.agent_data,
        [customerId],
      );
      const key = conversationKey(Scene.CS, teamId, customerId);
      const ts = Number(row.ts);
      await im.upsertConversation(userOf(socket), Scene.CS, customerId, teamId, key, ts);
      await im.upsertConversation(customerId, Scene.CS, teamId, teamId, key, ts);
      im.deliver(row, [Rooms.user(customerId), Rooms.user(userOf(socket)), Rooms.live(teamId, customerId)], socket.id);
      return { message: abbreviate(row, ctx.files) };
    });

    handle(ctx, Call.CS_TRANSFER, 'write', async (socket, payload) => {
      const teamId = validateId(payload.teamId, 'teamId');
      const customerId = validateId(payload.customerId, 'customerId');
      const agentId = validateId(payload.agentId, 'agentId');
      const agent = await requireAgent(teamId, userOf(socket));
      const target = await agentRow(teamId, agentId);
      // Only to an agent of the same team, online there now.
      if (!target || target.online !== 1 || !(await isAssignedAgent(ctx, teamId, agentId))) {
        throw badRequest(`agent ${agentId} is not online in team ${teamId}.`);
      }
      const current = await loadSession(teamId, customerId);
      if (!current || current.status !== 'ACCEPTED' || current.agent_id !== userOf(socket)) {
        throw new RequestError(401, Text.NO_PERMISSION);
      }
      const start = Date.now();
      const session: SessionRow = {
        ...current,
        status: 'ACCEPTED',
        session_id: String(start),
        start,
        agent_id: agentId,
        agent_data: target.agent_data as string,
      };
      await saveSession(session);
      const row = await systemMessage(
        socket,
        teamId,
        customerId,
        CsMessageType.TRANSFER,
        { sessionStart: start, transferTo: { id: agentId, data: target.agent_data } },
        session,
        agent.agent_data,
        [customerId, agentId],
      );
      const key = conversationKey(Scene.CS, teamId, customerId);
      const ts = Number(row.ts);
      await im.upsertConversation(userOf(socket), Scene.CS, customerId, teamId, key, ts);
      await im.upsertConversation(agentId, Scene.CS, customerId, teamId, key, ts, current.customer_data);
      await im.upsertConversation(customerId, Scene.CS, teamId, teamId, key, ts);
      im.deliver(
        row,
        [Rooms.user(customerId), Rooms.user(userOf(socket)), Rooms.user(agentId), Rooms.live(teamId, customerId)],
        socket.id,
      );
      return { message: abbreviate(row, ctx.files) };
    });

    handle(ctx, Call.CS_CUSTOMER_STATUS, 'read', async (socket, payload) => {
      const teamId = validateId(payload.teamId, 'teamId');
      const customerId = validateId(payload.customerId, 'customerId');
      if (customerId !== userOf(socket)) await requireAgent(teamId, userOf(socket));
      return statusOf(await loadSession(teamId, customerId));
    });

    handle(ctx, Call.CS_LIVE_SESSION, 'write', async (socket, payload) => {
      const teamId = validateId(payload.teamId, 'teamId');
      const customerId = validateId(payload.customerId, 'customerId');
      await requireAgent(teamId, userOf(socket));
      for (const room of socket.rooms) if (room.startsWith('live:')) socket.leave(room);
      socket.join(Rooms.live(teamId, customerId));
      return { customerStatus: statusOf(await loadSession(teamId, customerId)) };
    });

    handle(ctx, Call.CS_QUIT_LIVE, 'write', async (socket, payload) => {
      const teamId = validateId(payload.teamId, 'teamId');
      const customerId = validateId(payload.customerId, 'customerId');
      socket.leave(Rooms.live(teamId, customerId));
      return 'ok';
    });
  }

  registerRequests();
  return { agentRemoved };
}
