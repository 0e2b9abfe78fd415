import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { agentsOf, assignAgent, removeAgent } from '../../services/cs-agents';
import { routeGroup } from '../route';

/** Staff choose each customer-service team's agents. */
export function registerCsAgentRoutes(app: FastifyInstance, ctx: AppContext): void {
  routeGroup(app, ctx, { access: 'admin', tag: 'messaging' }, (group) => {
    group.route('POST /api/admin/cs_agents', ({ input }) => agentsOf(ctx, input.team_id));
    group.route('POST /api/admin/cs_agent_assign', ({ input }) => assignAgent(ctx, input.team_id, input.email));
    group.route('POST /api/admin/cs_agent_remove', ({ input }) => removeAgent(ctx, input.team_id, input.user_id));
  });
}
