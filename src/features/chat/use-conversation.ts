import type { AnyMessage, GroupMessage, MessagingError, PrivateMessage } from '@/messaging';
import { IM_EVENT } from '@/messaging';
import { currentUser } from '@/state/customer';
import Taro from '@tarojs/taro';
import { useEffect, useRef, useState } from 'react';
import { chatClient, connectChat } from './client';

export const HISTORY_PAGE = 20;

export interface Peer {
  type: 'private' | 'group';
  id: string;
  /** What the other side sees of this conversation: my name and avatar for private, the group's for group. */
  data: { name: string; avatar: string };
}

function belongs(message: AnyMessage, peer: Peer, me: string): boolean {
  if (peer.type === 'group') return (message as GroupMessage).groupId === peer.id;
  const privateMessage = message as PrivateMessage;
  return (
    (privateMessage.senderId === peer.id && privateMessage.receiverId === me) ||
    (privateMessage.senderId === me && privateMessage.receiverId === peer.id)
  );
}

export function failureText(error: unknown, fallback: string): string {
  const content = (error as MessagingError | undefined)?.content;
  return typeof content === 'string' && content ? content : fallback;
}

/**
 * One private or group conversation: history (older pages on demand), live messages, read marking,
 * read receipts, recall and delete. Messages are kept oldest first and re-rendered from the SDK's objects.
 */
export function useConversation(peer: Peer | null) {
  const [messages, setMessages] = useState<AnyMessage[]>([]);
  const [state, setState] = useState<'connecting' | 'ready' | 'error'>('connecting');
  const [error, setError] = useState('');
  const [allLoaded, setAllLoaded] = useState(false);
  const [, setVersion] = useState(0);
  const loadingOlder = useRef(false);
  const me = String(currentUser()?.user_id ?? '');
  const refresh = () => setVersion((version) => version + 1);

  const markRead = () => {
    if (!peer) return;
    const im = chatClient().im;
    const marking =
      peer.type === 'group'
        ? im.markGroupMessageAsRead({ groupId: peer.id })
        : im.markPrivateMessageAsRead({ userId: peer.id });
    marking.catch(() => undefined);
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new peer object for the same conversation must not reconnect
  useEffect(() => {
    if (!peer) return undefined;
    let active = true;
    const received = (message: AnyMessage) => {
      if (!active || !belongs(message, peer, me)) return;
      setMessages((list) => (list.some((item) => item.messageId === message.messageId) ? list : [...list, message]));
      if (message.senderId !== me) markRead();
    };
    const changed = (changedMessages: AnyMessage[]) => {
      if (!active) return;
      const ids = new Set(changedMessages.map((message) => message.messageId));
      setMessages((list) =>
        list.map((message) => changedMessages.find((item) => item.messageId === message.messageId) ?? message),
      );
      if (ids.size > 0) refresh();
    };
    const deleted = (deletedMessages: AnyMessage[]) => {
      if (!active) return;
      const ids = new Set(deletedMessages.map((message) => message.messageId));
      setMessages((list) => list.filter((message) => !ids.has(message.messageId)));
    };
    const receivedEvent = peer.type === 'group' ? IM_EVENT.GROUP_MESSAGE_RECEIVED : IM_EVENT.PRIVATE_MESSAGE_RECEIVED;
    connectChat()
      .then(async (client) => {
        if (!active) return;
        client.im.on(receivedEvent, received as never);
        client.im.on(IM_EVENT.MESSAGE_READ, changed as never);
        client.im.on(IM_EVENT.MESSAGE_RECALLED, changed as never);
        client.im.on(IM_EVENT.MESSAGE_DELETED, deleted as never);
        if (peer.type === 'group') await client.im.subscribeGroup({ groupIds: [peer.id] });
        const history = await client.im.history({ type: peer.type, id: peer.id, limit: HISTORY_PAGE });
        if (!active) return;
        setMessages(history.content);
        setAllLoaded(history.content.length < HISTORY_PAGE);
        setState('ready');
        markRead();
      })
      .catch((reason: unknown) => {
        if (!active) return;
        setError(failureText(reason, reason instanceof Error ? reason.message : 'Could not connect to chat'));
        setState('error');
      });
    return () => {
      active = false;
      try {
        const im = chatClient().im;
        im.off(receivedEvent, received as never);
        im.off(IM_EVENT.MESSAGE_READ, changed as never);
        im.off(IM_EVENT.MESSAGE_RECALLED, changed as never);
        im.off(IM_EVENT.MESSAGE_DELETED, deleted as never);
      } catch {
        // never connected: nothing to stop listening to
      }
    };
  }, [peer?.type, peer?.id]);

  const loadOlder = async () => {
    if (!peer || allLoaded || loadingOlder.current || messages.length === 0) return;
    loadingOlder.current = true;
    try {
      const older = await chatClient().im.history({
        type: peer.type,
        id: peer.id,
        lastTimestamp: messages[0].timestamp,
        limit: HISTORY_PAGE,
      });
      setMessages((list) => [
        ...older.content.filter((message) => !list.some((item) => item.messageId === message.messageId)),
        ...list,
      ]);
      if (older.content.length < HISTORY_PAGE) setAllLoaded(true);
    } finally {
      loadingOlder.current = false;
    }
  };

  const send = async (message: AnyMessage) => {
    setMessages((list) => [...list, message]);
    try {
      await chatClient().im.sendMessage({ message });
    } catch (reason) {
      void Taro.showToast({ title: failureText(reason, 'The message was not sent'), icon: 'none', duration: 2500 });
    }
    refresh();
  };

  const sendText = (text: string) => {
    if (!peer || text.trim() === '') return Promise.resolve();
    return send(chatClient().im.createTextMessage({ text, to: peer }));
  };

  const sendImage = (picked: { path: string; name: string; size: number; blob?: Blob }) => {
    if (!peer) return Promise.resolve();
    try {
      const file = picked.blob ?? { path: picked.path, name: picked.name, size: picked.size };
      return send(chatClient().im.createImageMessage({ file: file as never, to: peer }));
    } catch (reason) {
      void Taro.showToast({ title: failureText(reason, 'This image cannot be sent'), icon: 'none', duration: 2500 });
      return Promise.resolve();
    }
  };

  const recall = async (message: AnyMessage) => {
    try {
      await chatClient().im.recallMessage({ messages: [message] });
      refresh();
    } catch (reason) {
      void Taro.showToast({
        title: failureText(reason, 'The message could not be recalled'),
        icon: 'none',
        duration: 2500,
      });
    }
  };

  const remove = async (message: AnyMessage) => {
    try {
      await chatClient().im.deleteMessage({ messages: [message] });
      setMessages((list) => list.filter((item) => item.messageId !== message.messageId));
    } catch (reason) {
      void Taro.showToast({
        title: failureText(reason, 'The message could not be deleted'),
        icon: 'none',
        duration: 2500,
      });
    }
  };

  return { me, messages, state, error, allLoaded, loadOlder, sendText, sendImage, recall, remove };
}
