import { type CallbackOptions, type Result, ok, parseJson, settle } from './callbacks';
import { type Connection, QUERY, type RequestOptions, WRITE } from './connection';
import { messagingError } from './errors';
import type { HistoryOptions, Im, MarkAsReadOptions, WireMessage } from './im';
import { MessageCreators, messageFromWire } from './im';
import { type AnyMessage, type CSMessage, type CsSessionStatus, type Data, type User, nextCsStatus } from './model';
import * as Call from './protocol/calls';
import {
  isPlainObject,
  validateAccept,
  validateCallbackOptions,
  validateCsOnline,
  validateId,
  validateTransfer,
} from './validate';

export interface AgentOnlineOptions extends CallbackOptions<Result<string>> {
  teamData: Data;
  agentData: Data;
}
export interface AcceptOptions extends CallbackOptions<Result<AnyMessage | undefined>> {
  customer: User;
}
export interface EndOptions extends CallbackOptions<Result<AnyMessage | undefined>> {
  id: string;
}
export interface TransferOptions extends CallbackOptions<Result<AnyMessage | undefined>> {
  customerId: string;
  agentId: string;
}
export interface CustomerStatusOptions extends CallbackOptions<Result<CsSessionStatus>> {
  id: string;
}
export interface LiveSessionOptions extends CallbackOptions<Result<CsSessionStatus>> {
  customerId: string;
  onNewMessage?(message: CSMessage): void;
  onStatusUpdated?(status: CsSessionStatus): void;
}

export interface ListenCustomerOptions extends CallbackOptions<Result<CsSessionStatus>> {
  id: string;
  onNewMessage?(message: CSMessage): void;
  onStatusUpdated?(status: CsSessionStatus): void;
}

function toStatus(content: unknown): CsSessionStatus {
  if (!isPlainObject(content)) return { status: 'FREE' };
  const status = content.status === 'PENDING' || content.status === 'ACCEPTED' ? content.status : 'FREE';
  const result: CsSessionStatus = { status };
  if (content.start !== undefined && content.start !== null) result.start = Number(content.start);
  if (content.sessionId !== undefined && content.sessionId !== null) result.sessionId = String(content.sessionId);
  const agent = parseJson<unknown>(content.agent, undefined);
  if (isPlainObject(agent) && agent.id !== undefined)
    result.agent = { id: String(agent.id), data: parseJson<Data>(agent.data, {}) };
  return result;
}

/** The CS message an accept, end or transfer answered with (`{message}`, or the message itself). */
function messageOf(content: unknown): AnyMessage | undefined {
  const wire = isPlainObject(content) && isPlainObject(content.message) ? content.message : content;
  return isPlainObject(wire) && wire.i !== undefined
    ? messageFromWire({ ...(wire as unknown as WireMessage), t: 'cs' })
    : undefined;
}

/** One customer-service team from an agent's side: `im.csteam(teamId)`. */
export class CSTeam extends MessageCreators {
  private liveCustomer: string | null = null;

  constructor(
    readonly id: string,
    im: () => Im,
    private readonly connection: () => Connection,
  ) {
    super(im, id);
  }

  private request(event: string, params: Record<string, unknown>, options: RequestOptions = WRITE) {
    return this.connection().request(event, { teamId: this.id, ...params }, options);
  }

  online(options: AgentOnlineOptions): Promise<Result<string>> {
    return settle(options, async () => {
      validateCsOnline(options);
      await this.request(Call.CS_ONLINE, {
        teamData: JSON.stringify(options.teamData),
        agentData: JSON.stringify(options.agentData),
      });
      this.imModule().setOnline(this.id, true);
      await this.imModule().loadPending(this.id);
      return ok('ok');
    });
  }

  offline(options?: CallbackOptions<Result<string>>): Promise<Result<string>> {
    return settle(options, async () => {
      await this.request(Call.CS_OFFLINE, {});
      this.imModule().setOnline(this.id, false);
      this.imModule().dropPending(this.id);
      return ok('ok');
    });
  }

  /** Whether this agent is online in the team: GoEasy hands `onSuccess` the boolean itself, not `{code, content}`. */
  isOnline(options?: CallbackOptions<boolean>): Promise<boolean> {
    return settle(options, async () => (await this.imModule().queryTeams()).has(this.id));
  }

  accept(options: AcceptOptions): Promise<Result<AnyMessage | undefined>> {
    return settle(options, async () => {
      const customer = validateAccept(options);
      const body = await this.request(Call.CS_ACCEPT, {
        customer: { id: customer.id, data: JSON.stringify(customer.data) },
      });
      return ok(this.adopt(body.content, customer.data));
    });
  }

  end(options: EndOptions): Promise<Result<AnyMessage | undefined>> {
    return settle(options, async () => {
      validateCallbackOptions(options);
      const customerId = validateId(options.id, 'id');
      const body = await this.request(Call.CS_END, { customerId });
      return ok(this.adopt(body.content));
    });
  }

  transfer(options: TransferOptions): Promise<Result<AnyMessage | undefined>> {
    return settle(options, async () => {
      const { customerId, agentId } = validateTransfer(options);
      const body = await this.request(Call.CS_TRANSFER, { customerId, agentId });
      return ok(this.adopt(body.content));
    });
  }

  /** The message an accept/end/transfer produced, placed in its conversation like any sent message. */
  private adopt(content: unknown, customerData?: Data): AnyMessage | undefined {
    const message = messageOf(content);
    if (!message) return undefined;
    this.imModule().adoptOwnMessage(message, customerData);
    return message;
  }

  agents(options?: CallbackOptions<Result<User[]>>): Promise<Result<User[]>> {
    return settle(options, async () => {
      const body = await this.request(Call.CS_AGENTS, {}, QUERY);
      const list = Array.isArray(body.content) ? (body.content as Array<Record<string, unknown>>) : [];
      return ok(list.map((agent) => ({ id: String(agent.id), data: parseJson<Data>(agent.data, {}) })));
    });
  }

  customerStatus(options: CustomerStatusOptions): Promise<Result<CsSessionStatus>> {
    return settle(options, async () => {
      validateCallbackOptions(options);
      const customerId = validateId(options.id, 'id');
      const body = await this.request(Call.CS_CUSTOMER_STATUS, { customerId }, QUERY);
      return ok(toStatus(body.content));
    });
  }

  liveSession(options: LiveSessionOptions): Promise<Result<CsSessionStatus>> {
    return settle(options, async () => {
      validateCallbackOptions(options);
      const customerId = validateId(options.customerId, 'customerId');
      const body = await this.request(Call.CS_LIVE_SESSION, { customerId }, QUERY);
      const content = isPlainObject(body.content) ? body.content : {};
      let status = toStatus(content.customerStatus ?? content);
      const im = this.imModule();
      if (this.liveCustomer) im.liveSessions.delete(`${this.id}#${this.liveCustomer}`);
      this.liveCustomer = customerId;
      im.liveSessions.set(`${this.id}#${customerId}`, (message) => {
        options.onNewMessage?.(message);
        const next = nextCsStatus(status, message);
        if (next !== status) {
          status = next;
          options.onStatusUpdated?.(status);
        }
      });
      return ok(status);
    });
  }

  /** GoEasy 2.8.3's other name for liveSession: the customer as `id`. */
  listenCustomer(options: ListenCustomerOptions): Promise<Result<CsSessionStatus>> {
    if (!isPlainObject(options)) return this.liveSession(options as never);
    const { id, ...rest } = options;
    return this.liveSession({ ...rest, customerId: id });
  }

  /** GoEasy 2.8.3's other name for quitLiveSession. */
  cancelListenCustomer(options?: CallbackOptions<Result<string>>): Promise<Result<string>> {
    return this.quitLiveSession(options);
  }

  quitLiveSession(options?: CallbackOptions<Result<string>>): Promise<Result<string>> {
    return settle(options, async () => {
      if (!this.liveCustomer) throw messagingError(400, 'no live session');
      const customerId = this.liveCustomer;
      await this.request(Call.CS_QUIT_LIVE, { customerId }, QUERY);
      this.imModule().liveSessions.delete(`${this.id}#${customerId}`);
      this.liveCustomer = null;
      return ok('ok');
    });
  }

  history(options: HistoryOptions): Promise<Result<AnyMessage[]>> {
    return settle(options, () => this.imModule().history({ ...options, type: 'cs' }, this.id));
  }

  markMessageAsRead(options: MarkAsReadOptions): Promise<Result<string>> {
    return settle(options, () => this.imModule().markAsRead({ ...options, type: 'cs' }, this.id));
  }
}
