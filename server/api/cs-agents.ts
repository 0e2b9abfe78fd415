import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { CsAgent } from '../../types/api';
import { requireAdmin } from '../auth';
import type { AppContext } from '../context';
import { ApiError, body, id, ok } from '../http';
import { email } from './auth';

/**
 * Customer-service agents, as the shop assigns them: only an admin lists, assigns and removes the users
 * who may act for a team (go online, accept, transfer, end, read its conversations) on the messaging server.
 */
const teamId = z
  .string({ required_error: 'is required' })
  .regex(/^[A-Za-z0-9_.@-]{1,60}$/, 'must be 1 to 60 letters, digits, _ - . or @');

async function agentsOf(ctx: AppContext, team: string): Promise<CsAgent[]> {
  const assigned = await ctx.messaging.agents(team);
  const ids = assigned.map((agent) => Number(agent.agentId)).filter(Number.isInteger);
  const users =
    ids.length > 0
      ? await ctx.db.selectFrom('users').select(['id', 'email', 'nickname', 'avatar']).where('id', 'in', ids).execute()
      : [];
  const byId = new Map(users.map((user) => [String(user.id), user]));
  return assigned.flatMap((agent) => {
    const user = byId.get(agent.agentId);
    if (!user) return [];
    return [
      {
        user_id: user.id,
        email: user.email,
        nickname: user.nickname,
        avatar: user.avatar,
        online: agent.online,
        assigned_at: agent.createdAt,
      },
    ];
  });
}

export function registerCsAgentRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post('/api/admin/cs_agents', async (request) => {
    await requireAdmin(ctx, request);
    const input = body(request, z.object({ team_id: teamId }));
    return ok(await agentsOf(ctx, input.team_id));
  });

  app.post('/api/admin/cs_agent_assign', async (request) => {
    await requireAdmin(ctx, request);
    const input = body(request, z.object({ team_id: teamId, email }));
    const user = await ctx.db.selectFrom('users').select('id').where('email', '=', input.email).executeTakeFirst();
    if (!user) throw new ApiError(404, 'email: no account with this e-mail');
    await ctx.messaging.assignAgent(input.team_id, String(user.id));
    return ok(await agentsOf(ctx, input.team_id));
  });

  app.post('/api/admin/cs_agent_remove', async (request) => {
    await requireAdmin(ctx, request);
    const input = body(request, z.object({ team_id: teamId, user_id: id }));
    if (!(await ctx.messaging.removeAgent(input.team_id, String(input.user_id)))) {
      throw new ApiError(404, 'user_id: not an agent of this team');
    }
    return ok(await agentsOf(ctx, input.team_id));
  });
}
