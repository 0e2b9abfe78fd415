import type { CsAgent } from '../../types/api';
import type { AppContext } from '../context';
import { ApiError } from '../http';

/**
 * Customer-service agents, as the shop assigns them: only an admin lists, assigns and removes the users who may act
 * for a team (go online, accept, transfer, end, read its conversations) on the messaging server.
 */
export async function agentsOf(ctx: AppContext, team: string): Promise<CsAgent[]> {
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

export async function assignAgent(ctx: AppContext, team: string, address: string): Promise<CsAgent[]> {
  const user = await ctx.db.selectFrom('users').select('id').where('email', '=', address).executeTakeFirst();
  if (!user) throw new ApiError(404, 'email: no account with this e-mail');
  await ctx.messaging.assignAgent(team, String(user.id));
  return agentsOf(ctx, team);
}

export async function removeAgent(ctx: AppContext, team: string, userId: number): Promise<CsAgent[]> {
  if (!(await ctx.messaging.removeAgent(team, String(userId)))) {
    throw new ApiError(404, 'user_id: not an agent of this team');
  }
  return agentsOf(ctx, team);
}
