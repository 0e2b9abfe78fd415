import type { Kysely } from 'kysely';
import type { MessagingDatabase } from '../db/messaging-schema';

/**
 * The shop's control over messaging: it withdraws identity proofs (logout revokes one session, a password
 * change every session of the user) and removes customer-service agents. Each change is written to the
 * shared database first, so every messaging process refuses what it withdrew, then every listener (each
 * process's messaging server) closes or narrows the open sessions it concerns; the socket.io adapter
 * carries that to the sockets of the other processes.
 */
export interface Revocation {
  userId: string;
  /** One shop session; absent means every session of the user. */
  sessionRef?: string;
}

export type ControlEvent =
  | { kind: 'revoked'; revocation: Revocation }
  | { kind: 'agent-removed'; teamId: string; agentId: string };

type Listener = (event: ControlEvent) => Promise<void>;

/** A system message the shop sends (see `sendSystemMessage`). */
export interface SystemMessage {
  /** The user id(s) it is for; each gets their own copy. */
  to: string | string[];
  /** `text` with `{text}`, or a custom type (e.g. `order_shipped`) with an object payload. */
  type: string;
  payload: Record<string, unknown> | string | number;
  /** The system conversation it belongs to: `system` unless given (e.g. `orders`). */
  senderId?: string;
  /** The sender as the app shows it, e.g. `{name: 'Lensmate orders', avatar: '/logo.png'}`. */
  senderData?: Record<string, unknown>;
  /** A push notification (title at most 32 characters, body at most 50) for users who are not connected. */
  notification?: { title: string; body: string };
}

export interface SentSystemMessage {
  userId: string;
  messageId: string;
  timestamp: number;
}

type SystemSender = (message: SystemMessage) => Promise<SentSystemMessage[]>;

/** A user-wide revocation is stored under this session reference. */
const EVERY_SESSION = '';

export class MessagingControl {
  private readonly listeners = new Set<Listener>();
  private systemSender: SystemSender | null = null;

  constructor(
    private readonly db: Kysely<MessagingDatabase>,
    private readonly now: () => number = Date.now,
  ) {}

  listen(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private async tell(event: ControlEvent): Promise<void> {
    for (const listener of this.listeners) await listener(event);
  }

  /**
   * Sends a system message (scene `system`) from the shop to users: "Your order 1042 has shipped", "We refunded
   * 39.00". Each user finds it in their system conversation with `senderId` (conversation list, history, read
   * marks), their connected devices receive it at once (SYSTEM_MESSAGE_RECEIVED), the others when they connect.
   * Resolves when it is stored; a bad message (unknown user id form, oversized payload, a bad notification) is
   * refused with the messaging server's `RequestError` (`code` 400, `content` the reason) and nothing is stored.
   *
   *   await control.sendSystemMessage({
   *     to: String(order.user_id),
   *     senderId: 'orders',
   *     senderData: { name: 'Lensmate orders' },
   *     type: 'order_shipped',
   *     payload: { orderId: order.id, trackingNumber },
   *     notification: { title: 'Order shipped', body: `Order ${order.id} is on its way` },
   *   });
   */
  async sendSystemMessage(message: SystemMessage): Promise<SentSystemMessage[]> {
    if (!this.systemSender) throw new Error('The messaging server is not running in this process');
    return this.systemSender(message);
  }

  /** @internal The messaging server plugs in here; it returns the function that unplugs it. */
  attachSystemSender(sender: SystemSender): () => void {
    this.systemSender = sender;
    return () => {
      if (this.systemSender === sender) this.systemSender = null;
    };
  }

  /** Records the revocation, then closes the sessions it names. */
  async revoke(revocation: Revocation): Promise<void> {
    const revokedAt = this.now();
    const sessionRef = revocation.sessionRef ?? EVERY_SESSION;
    await this.db
      .insertInto('msg_revocation')
      .values({ user_id: revocation.userId, session_ref: sessionRef, revoked_at: revokedAt })
      .onConflict((oc) => oc.columns(['user_id', 'session_ref']).doUpdateSet({ revoked_at: revokedAt }))
      .execute();
    await this.tell({ kind: 'revoked', revocation });
  }

  /** Whether a proof issued at `issuedAt` for this user and session has been withdrawn since. */
  async isRevoked(userId: string, sessionRef: string, issuedAt: number): Promise<boolean> {
    const refs = sessionRef ? [EVERY_SESSION, sessionRef] : [EVERY_SESSION];
    const row = await this.db
      .selectFrom('msg_revocation')
      .select('revoked_at')
      .where('user_id', '=', userId)
      .where('session_ref', 'in', refs)
      .where('revoked_at', '>=', issuedAt)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Rows older than every proof and session they could still refuse. */
  async sweep(olderThan: number): Promise<void> {
    await this.db.deleteFrom('msg_revocation').where('revoked_at', '<', olderThan).execute();
  }

  /** The users the shop made agents of a team, oldest first. */
  async agents(teamId: string): Promise<{ agentId: string; online: boolean; createdAt: number }[]> {
    const rows = await this.db
      .selectFrom('msg_cs_assignment as a')
      .leftJoin('msg_cs_agent as s', (join) =>
        join.onRef('s.team_id', '=', 'a.team_id').onRef('s.agent_id', '=', 'a.agent_id'),
      )
      .select(['a.agent_id', 'a.created_at', 's.online'])
      .where('a.team_id', '=', teamId)
      .orderBy('a.created_at')
      .orderBy('a.agent_id')
      .execute();
    return rows.map((row) => ({
      agentId: row.agent_id as string,
      online: Number(row.online) === 1,
      createdAt: Number(row.created_at),
    }));
  }

  /** Makes the user an agent of the team (again: an existing assignment is kept as it is). */
  async assignAgent(teamId: string, agentId: string): Promise<void> {
    await this.db
      .insertInto('msg_cs_assignment')
      .values({ team_id: teamId, agent_id: agentId, created_at: this.now() })
      .onConflict((oc) => oc.columns(['team_id', 'agent_id']).doNothing())
      .execute();
  }

  /** Ends the assignment: the agent goes offline for the team and its open sessions leave the team's rooms. */
  async removeAgent(teamId: string, agentId: string): Promise<boolean> {
    const removed = await this.db
      .deleteFrom('msg_cs_assignment')
      .where('team_id', '=', teamId)
      .where('agent_id', '=', agentId)
      .executeTakeFirst();
    await this.db.deleteFrom('msg_cs_agent').where('team_id', '=', teamId).where('agent_id', '=', agentId).execute();
    await this.tell({ kind: 'agent-removed', teamId, agentId });
    return Number(removed.numDeletedRows) > 0;
  }
}
