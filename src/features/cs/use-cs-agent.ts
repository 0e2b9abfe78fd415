import { chatClient } from '@/features/chat/client';
import { chatConnection } from '@/features/chat/session';
import { failureText } from '@/features/chat/use-conversation';
import type { PickedFile } from '@/features/social/media';
import {
  type AnyMessage,
  type CSMessage,
  type ConversationDTO,
  type CsSessionStatus,
  IM_EVENT,
  type User,
} from '@/messaging';
import { currentUser } from '@/state/customer';
import Taro from '@tarojs/taro';
import { useEffect, useRef, useState } from 'react';
import { HISTORY_PAGE, SUPPORT_TEAM_DATA, SUPPORT_TEAM_ID, customerOfConversation, mergeMessages } from './support';

/** The SDK's shapes the agents' desk shows; pages reach the SDK only through features. */
export type { ConversationDTO, User } from '@/messaging';

interface Owner {
  /** The agent serving the customer, null while nobody is. */
  agent: string | null;
  data: Record<string, unknown>;
}

export interface Session {
  customerId: string;
  data: Record<string, unknown>;
  status: CsSessionStatus;
  messages: AnyMessage[];
}

function toast(title: string): void {
  void Taro.showToast({ title, icon: 'none', duration: 2500 });
}

const team = () => chatClient().im.csteam(SUPPORT_TEAM_ID);

/** The CS conversations of the support team that have not ended (mine or, seen from the team, another agent's). */
function openSessions(conversations: ConversationDTO[]): ConversationDTO[] {
  return conversations.filter((dto) => dto.type === 'cs' && dto.teamId === SUPPORT_TEAM_ID && !dto.ended);
}

/** The customer's data to answer with: the conversation's, else what their own messages carry. */
function customerData(dto: ConversationDTO, messages: AnyMessage[], customerId: string): Record<string, unknown> {
  if (Object.keys(dto.data ?? {}).length > 0) return dto.data;
  const own = messages.find((message) => message.senderId === customerId) as CSMessage | undefined;
  return own && Object.keys(own.senderData).length > 0 ? own.senderData : customerOfConversation(dto);
}

/**
 * The agent's side of the support team: online and offline, the pending list, my open sessions, and one live
 * session at a time with accept, reply, transfer and end (messaging.md §4 and §6).
 */
export function useCsAgent(enabled: boolean) {
  const [state, setState] = useState<'connecting' | 'ready' | 'error'>('connecting');
  const [error, setError] = useState('');
  const [online, setOnline] = useState(false);
  const [pending, setPending] = useState<ConversationDTO[]>([]);
  const [opened, setOpened] = useState<ConversationDTO[]>([]);
  const [owners, setOwners] = useState<Record<string, Owner>>({});
  const checked = useRef(new Map<string, string>());
  const [session, setSession] = useState<Session | null>(null);
  const [busy, setBusy] = useState(false);
  const me = String(currentUser()?.user_id ?? '');
  const open = useRef<string | null>(null);

  const agentData = () => {
    const user = currentUser();
    return { name: user?.nickname || user?.email || `Agent ${me}`, avatar: user?.avatar ?? '' };
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: connects once per signed-in agent
  useEffect(() => {
    if (!enabled || !me) return undefined;
    let active = true;
    const pendingChanged = (result: { conversations: ConversationDTO[] }) => {
      if (active) setPending(result.conversations.filter((dto) => dto.teamId === SUPPORT_TEAM_ID));
    };
    /** Who serves each open conversation, asked of the server whenever its last message changes. */
    const resolveOwner = async (dto: ConversationDTO) => {
      const id = String(dto.id);
      const last = dto.lastMessage?.messageId ?? '';
      if (checked.current.get(id) === last) return;
      checked.current.set(id, last);
      const status = (await team().customerStatus({ id })).content;
      const history =
        Object.keys(dto.data ?? {}).length > 0 ? [] : (await team().history({ id, limit: HISTORY_PAGE })).content;
      const agent = status.status === 'ACCEPTED' ? (status.agent?.id ?? null) : null;
      if (active) setOwners((known) => ({ ...known, [id]: { agent, data: customerData(dto, history, id) } }));
    };
    const conversationsChanged = (result: { conversations: ConversationDTO[] }) => {
      if (!active) return;
      const list = openSessions(result.conversations);
      setOpened(list);
      for (const dto of list) void resolveOwner(dto).catch(() => checked.current.delete(String(dto.id)));
    };
    chatConnection()
      .then(async (client) => {
        if (!active) return;
        client.im.on(IM_EVENT.PENDING_CONVERSATIONS_UPDATED, pendingChanged);
        client.im.on(IM_EVENT.CONVERSATIONS_UPDATED, conversationsChanged);
        const isOnline = await team().isOnline();
        // Going online again reloads the pending list (it is dropped when the agent goes offline).
        if (isOnline) await team().online({ teamData: SUPPORT_TEAM_DATA, agentData: agentData() });
        const [latest, waiting] = await Promise.all([
          client.im.latestConversations(),
          client.im.pendingConversations(),
        ]);
        if (!active) return;
        setOnline(isOnline);
        conversationsChanged(latest.content);
        pendingChanged(waiting.content);
        setState('ready');
      })
      .catch((reason: unknown) => {
        if (!active) return;
        setError(failureText(reason, reason instanceof Error ? reason.message : 'Could not connect to support'));
        setState('error');
      });
    return () => {
      active = false;
      try {
        const im = chatClient().im;
        im.off(IM_EVENT.PENDING_CONVERSATIONS_UPDATED, pendingChanged);
        im.off(IM_EVENT.CONVERSATIONS_UPDATED, conversationsChanged);
        if (open.current)
          void team()
            .quitLiveSession()
            .catch(() => undefined);
      } catch {
        // never connected
      }
    };
  }, [enabled, me]);

  const run = async (work: () => Promise<unknown>, failure: string): Promise<boolean> => {
    setBusy(true);
    try {
      await work();
      return true;
    } catch (reason) {
      toast(failureText(reason, failure));
      return false;
    } finally {
      setBusy(false);
    }
  };

  const goOnline = () =>
    run(async () => {
      await team().online({ teamData: SUPPORT_TEAM_DATA, agentData: agentData() });
      setOnline(true);
    }, 'Could not go online');

  const goOffline = () =>
    run(async () => {
      await team().offline();
      setOnline(false);
    }, 'Could not go offline');

  const updateSession = (customerId: string, change: (current: Session) => Session) =>
    setSession((current) => (current && current.customerId === customerId ? change(current) : current));

  const openSession = (dto: ConversationDTO) =>
    run(async () => {
      const customerId = String(dto.id);
      open.current = customerId;
      const status = await team().liveSession({
        customerId,
        onNewMessage: (message) =>
          updateSession(customerId, (s) => ({ ...s, messages: mergeMessages(s.messages, [message]) })),
        onStatusUpdated: (next) => updateSession(customerId, (s) => ({ ...s, status: next })),
      });
      const history = await team().history({ id: customerId, limit: HISTORY_PAGE });
      setSession({
        customerId,
        data: customerData(dto, history.content, customerId),
        status: status.content,
        messages: mergeMessages([], history.content),
      });
      void team()
        .markMessageAsRead({ id: customerId })
        .catch(() => undefined);
    }, 'This conversation cannot be opened');

  const closeSession = () => {
    open.current = null;
    setSession(null);
    void team()
      .quitLiveSession()
      .catch(() => undefined);
  };

  /** The status as the server has it, after an action of mine moved it. */
  const reloadStatus = async (customerId: string) => {
    const status = await team().customerStatus({ id: customerId });
    updateSession(customerId, (s) => ({ ...s, status: status.content }));
  };

  const accept = () =>
    session &&
    run(async () => {
      await team().accept({ customer: { id: session.customerId, data: session.data } });
      await reloadStatus(session.customerId);
    }, 'The conversation could not be accepted');

  const end = () =>
    session &&
    run(async () => {
      await team().end({ id: session.customerId });
      await reloadStatus(session.customerId);
    }, 'The conversation could not be ended');

  const transfer = (agentId: string) =>
    session &&
    run(async () => {
      await team().transfer({ customerId: session.customerId, agentId });
      await reloadStatus(session.customerId);
    }, 'The conversation could not be transferred');

  /** The other agents online in the team, the ones a conversation can go to. */
  const otherAgents = async (): Promise<User[]> => {
    const result = await team().agents();
    return result.content.filter((agent) => agent.id !== me);
  };

  const send = async (create: (to: { type: 'cs'; id: string; data: Record<string, unknown> }) => AnyMessage) => {
    if (!session) return;
    const customerId = session.customerId;
    let message: AnyMessage;
    try {
      message = create({ type: 'cs', id: customerId, data: session.data });
    } catch (reason) {
      toast(failureText(reason, 'This message cannot be sent'));
      return;
    }
    updateSession(customerId, (s) => ({ ...s, messages: mergeMessages(s.messages, [message]) }));
    try {
      await chatClient().im.sendMessage({ message });
    } catch (reason) {
      toast(failureText(reason, 'The message was not sent'));
    }
    updateSession(customerId, (s) => ({ ...s, messages: [...s.messages] }));
  };

  const sendText = (text: string) => send((to) => team().createTextMessage({ text, to }));
  const sendImage = (picked: PickedFile) =>
    send((to) =>
      team().createImageMessage({
        file: (picked.blob ?? { path: picked.path, name: picked.name, size: picked.size }) as never,
        to,
      }),
    );

  const mine = opened
    .filter((dto) => owners[String(dto.id)]?.agent === me)
    .map((dto) => ({ ...dto, data: owners[String(dto.id)].data }));

  return {
    me,
    state,
    error,
    online,
    pending,
    mine,
    session,
    busy,
    goOnline,
    goOffline,
    openSession,
    closeSession,
    accept,
    end,
    transfer,
    otherAgents,
    sendText,
    sendImage,
  };
}
