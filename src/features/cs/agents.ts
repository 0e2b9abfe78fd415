import { post } from '@/core/request';
import { SUPPORT_TEAM_ID } from '../../../types/api';

/** The admin page that assigns and removes the support team's agents. */
export const CS_AGENTS_PAGE = '/pages/admin/cs-agents';

/** The support team's agents, as the shop assigned them (admins only). */
export const listAgents = () => post('/api/admin/cs_agents', { team_id: SUPPORT_TEAM_ID });

/** Makes the account with this e-mail an agent of the support team; answers the list after. */
export const assignAgent = (email: string) => post('/api/admin/cs_agent_assign', { team_id: SUPPORT_TEAM_ID, email });

/** Ends an agent's assignment: they can no longer go online, accept or read the team's conversations. */
export const removeAgent = (userId: number) =>
  post('/api/admin/cs_agent_remove', { team_id: SUPPORT_TEAM_ID, user_id: userId });
