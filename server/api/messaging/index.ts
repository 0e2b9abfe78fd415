import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { registerCsAgentRoutes } from './cs-agents';
import { registerMessagingTokenRoute } from './token';

/** What the shop's API does for the messaging server: identity proofs and customer-service agents. */
export function registerMessagingRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerMessagingTokenRoute(app, ctx);
  registerCsAgentRoutes(app, ctx);
}
