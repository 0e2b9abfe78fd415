import { chatClient } from '@/features/chat/client';
import { chatConnection } from '@/features/chat/session';
import { failureText } from '@/features/chat/use-conversation';
import type { PickedFile } from '@/features/social/media';
import { type AnyMessage, type CSMessage, type CsSessionStatus, IM_EVENT } from '@/messaging';
import { currentUser } from '@/state/customer';
import Taro from '@tarojs/taro';
import { useEffect, useRef, useState } from 'react';
import { type Card, HISTORY_PAGE, SUPPORT_TEAM_DATA, SUPPORT_TEAM_ID, isSystem, mergeMessages } from './support';

const TO = { type: 'cs' as const, id: SUPPORT_TEAM_ID, data: SUPPORT_TEAM_DATA };

function toast(title: string): void {
  void Taro.showToast({ title, icon: 'none', duration: 2500 });
}

/**
 * The shopper's conversation with the support team: history, live messages, the session status from the server
 * (asked again after every message that can move it), and sending. A card given by the page goes out first,
 * with the shopper's first message.
 */
export function useCsCustomer(card: Card | null, enabled: boolean) {
  const [messages, setMessages] = useState<AnyMessage[]>([]);
  const [status, setStatus] = useState<CsSessionStatus>({ status: 'FREE' });
  const [state, setState] = useState<'connecting' | 'ready' | 'error'>('connecting');
  const [error, setError] = useState('');
  const [, setVersion] = useState(0);
  const cardSent = useRef(false);
  const me = String(currentUser()?.user_id ?? '');

  const refreshStatus = async () => {
    const result = await chatClient().im.csteam(SUPPORT_TEAM_ID).customerStatus({ id: me });
    setStatus(result.content);
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: connects once per signed-in user
  useEffect(() => {
    if (!enabled || !me) return undefined;
    let active = true;
    const received = (message: CSMessage) => {
      if (!active || message.teamId !== SUPPORT_TEAM_ID || message.customerId() !== me) return;
      setMessages((list) => mergeMessages(list, [message]));
      if (isSystem(message) || message.sentByCustomer()) void refreshStatus().catch(() => undefined);
      if (message.senderId !== me) void chatClient().im.markMessageAsRead({ type: 'cs', id: SUPPORT_TEAM_ID });
    };
    chatConnection()
      .then(async (client) => {
        if (!active) return;
        client.im.on(IM_EVENT.CS_MESSAGE_RECEIVED, received);
        const [history] = await Promise.all([
          client.im.history({ type: 'cs', id: SUPPORT_TEAM_ID, limit: HISTORY_PAGE }),
          refreshStatus(),
        ]);
        if (!active) return;
        setMessages((list) => mergeMessages(list, history.content));
        setState('ready');
        void client.im.markMessageAsRead({ type: 'cs', id: SUPPORT_TEAM_ID }).catch(() => undefined);
      })
      .catch((reason: unknown) => {
        if (!active) return;
        setError(failureText(reason, reason instanceof Error ? reason.message : 'Could not connect to support'));
        setState('error');
      });
    return () => {
      active = false;
      try {
        chatClient().im.off(IM_EVENT.CS_MESSAGE_RECEIVED, received);
      } catch {
        // never connected
      }
    };
  }, [enabled, me]);

  /** Creates (which validates) and sends one message; false when it did not go out. */
  const send = async (create: () => AnyMessage): Promise<boolean> => {
    let message: AnyMessage;
    try {
      message = create();
    } catch (reason) {
      toast(failureText(reason, 'This message cannot be sent'));
      return false;
    }
    setMessages((list) => mergeMessages(list, [message]));
    try {
      await chatClient().im.sendMessage({ message });
      return true;
    } catch (reason) {
      toast(failureText(reason, 'The message was not sent'));
      return false;
    } finally {
      setVersion((version) => version + 1);
      void refreshStatus().catch(() => undefined);
    }
  };

  /** The card goes out once, just before the first thing the shopper sends. */
  const sendCardFirst = async (): Promise<boolean> => {
    if (!card || cardSent.current) return true;
    cardSent.current = true;
    const { type, payload } = card;
    const sent = await send(() => chatClient().im.createCustomMessage({ type, payload: { ...payload }, to: TO }));
    if (!sent) cardSent.current = false;
    return sent;
  };

  const sendText = async (text: string) => {
    if (text.trim() === '' || !(await sendCardFirst())) return;
    await send(() => chatClient().im.createTextMessage({ text, to: TO }));
  };

  const sendImage = async (picked: PickedFile) => {
    if (!(await sendCardFirst())) return;
    const file = picked.blob ?? { path: picked.path, name: picked.name, size: picked.size };
    await send(() => chatClient().im.createImageMessage({ file: file as never, to: TO }));
  };

  const ended = messages.length > 0 && messages[messages.length - 1].type === 'CS_END';
  return {
    me,
    messages,
    status,
    ended,
    state,
    error,
    cardPending: card !== null && !cardSent.current,
    sendText,
    sendImage,
  };
}
