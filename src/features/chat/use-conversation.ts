import type { AnyMessage, GroupMessage, MediaFile, MessagingError, PrivateMessage } from '@/messaging';
import { IM_EVENT } from '@/messaging';
import { currentUser } from '@/state/customer';
import Taro from '@tarojs/taro';
import { useEffect, useRef, useState } from 'react';
import { chatClient, chatTemplate, rememberGroupName } from './client';
import { describeContent } from './describe';
import { LOCATION_MESSAGE, type Place } from './location';
import { notificationFor, templateMessageFor } from './notify';
import { chatConnection } from './session';

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

export type MediaKind = 'image' | 'video' | 'audio' | 'file';

/** A file the user picked: a local path and, on H5, the browser File itself. */
export interface PickedMedia {
  path: string;
  name: string;
  size: number;
  blob?: Blob;
  /** A video's poster frame (a local path), uploaded as the message's thumbnail. */
  poster?: string;
  /** A video's size in pixels, where known (the thumbnail keeps its proportions). */
  width?: number;
  height?: number;
}

const MEDIA_CREATORS = {
  image: 'createImageMessage',
  video: 'createVideoMessage',
  audio: 'createAudioMessage',
  file: 'createFileMessage',
} as const;

type MakeMessage = (onProgress: (progress: number) => void) => AnyMessage;

function toast(title: string): void {
  void Taro.showToast({ title, icon: 'none', duration: 2500 });
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
  const [olderBusy, setOlderBusy] = useState(false);
  const [progress, setProgress] = useState<Record<string, number | null>>({});
  const remakes = useRef(new Map<string, MakeMessage>());
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
    if (peer.type === 'group') rememberGroupName(peer.id, peer.data.name);
    const receivedEvent = peer.type === 'group' ? IM_EVENT.GROUP_MESSAGE_RECEIVED : IM_EVENT.PRIVATE_MESSAGE_RECEIVED;
    chatConnection()
      .then(async (client) => {
        if (!active) return;
        client.im.on(receivedEvent, received);
        client.im.on(IM_EVENT.MESSAGE_READ, changed);
        client.im.on(IM_EVENT.MESSAGE_RECALLED, changed);
        client.im.on(IM_EVENT.MESSAGE_DELETED, deleted);
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
        im.off(receivedEvent, received);
        im.off(IM_EVENT.MESSAGE_READ, changed);
        im.off(IM_EVENT.MESSAGE_RECALLED, changed);
        im.off(IM_EVENT.MESSAGE_DELETED, deleted);
      } catch {
        // never connected: nothing to stop listening to
      }
    };
  }, [peer?.type, peer?.id]);

  const loadOlder = async () => {
    if (!peer || allLoaded || loadingOlder.current || messages.length === 0) return;
    loadingOlder.current = true;
    setOlderBusy(true);
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
    } catch (reason) {
      toast(failureText(reason, 'Earlier messages could not be loaded'));
    } finally {
      loadingOlder.current = false;
      setOlderBusy(false);
    }
  };

  /** Creates and sends a message; `make` is kept until it succeeds, so a failed message can be made again. */
  const send = async (make: MakeMessage) => {
    let id = '';
    // Some platforms report no total (NaN): the upload is then shown without a percentage.
    const onProgress = (value: number) => {
      if (id)
        setProgress((all) => ({ ...all, [id]: Number.isFinite(value) ? Math.min(100, Math.max(0, value)) : null }));
    };
    let message: AnyMessage;
    try {
      message = make(onProgress);
    } catch (reason) {
      toast(failureText(reason, 'This message cannot be sent'));
      return;
    }
    id = message.messageId;
    remakes.current.set(id, make);
    setMessages((list) => [...list, message]);
    try {
      await chatClient().im.sendMessage({ message });
      remakes.current.delete(id);
    } catch (reason) {
      toast(failureText(reason, 'The message was not sent'));
    }
    setProgress(({ [id]: _done, ...rest }) => rest);
    refresh();
  };

  /** Sends a failed message again as a new message (the SDK sends a message once), in place of the failed one. */
  const retry = (message: AnyMessage) => {
    const make = remakes.current.get(message.messageId);
    if (!make) return Promise.resolve();
    remakes.current.delete(message.messageId);
    setMessages((list) => list.filter((item) => item.messageId !== message.messageId));
    return send(make);
  };

  /** What receivers who are away are notified with (shop-app.md §2: a group's notification leads to its chat). */
  const notice = (preview: string) => {
    const user = currentUser();
    return peer ? notificationFor(peer.type, preview, peer.data.name, user?.nickname || user?.email || '') : undefined;
  };

  /** WeChat's notification for receivers who are offline, when the shop has a template for it. */
  const wechatNotice = (preview: string) => {
    const user = currentUser();
    const template = chatTemplate();
    if (!peer || !template || !user) return {};
    const me = String(user.user_id);
    const senderName = user.nickname || user.email;
    const message = templateMessageFor(template, peer.type, { id: peer.id, me }, preview, peer.data.name, senderName);
    return { wxmpTemplateMsg: message };
  };

  const sendText = (text: string) => {
    if (!peer || text.trim() === '') return Promise.resolve();
    return send(() =>
      chatClient().im.createTextMessage({ text, to: peer, notification: notice(text), ...wechatNotice(text) }),
    );
  };

  /** An image, video, audio or file message: uploaded first (progress in `progress`), then sent. */
  const sendMedia = (kind: MediaKind, picked: PickedMedia) => {
    if (!peer) return Promise.resolve();
    // The local path (a blob URL on H5) is what the SDK uploads and what the bubble shows until it is sent.
    const type = picked.blob?.type ? { type: picked.blob.type } : {};
    const poster = picked.poster ? { thumbTempFilePath: picked.poster } : {};
    const pixels = picked.width && picked.height ? { width: picked.width, height: picked.height } : {};
    const file: MediaFile = { path: picked.path, name: picked.name, size: picked.size, ...type, ...poster, ...pixels };
    const notification = notice(describeContent(kind, {}));
    const wechat = wechatNotice(describeContent(kind, {}));
    return send((onProgress) =>
      chatClient().im[MEDIA_CREATORS[kind]]({ file, to: peer, onProgress, notification, ...wechat }),
    );
  };

  const sendLocation = (place: Place) => {
    if (!peer) return Promise.resolve();
    const notification = notice(describeContent(LOCATION_MESSAGE, { ...place }));
    const wechat = wechatNotice(describeContent(LOCATION_MESSAGE, { ...place }));
    return send(() =>
      chatClient().im.createCustomMessage({
        type: LOCATION_MESSAGE,
        payload: { ...place },
        to: peer,
        notification,
        ...wechat,
      }),
    );
  };

  const recall = async (message: AnyMessage) => {
    try {
      await chatClient().im.recallMessage({ messages: [message] });
      refresh();
    } catch (reason) {
      toast(failureText(reason, 'The message could not be recalled'));
    }
  };

  const remove = async (message: AnyMessage) => {
    const drop = () => setMessages((list) => list.filter((item) => item.messageId !== message.messageId));
    if (message.status === 'fail') {
      // Never stored on the server: there is nothing to delete there.
      remakes.current.delete(message.messageId);
      drop();
      return;
    }
    try {
      await chatClient().im.deleteMessage({ messages: [message] });
      drop();
    } catch (reason) {
      toast(failureText(reason, 'The message could not be deleted'));
    }
  };

  return {
    me,
    messages,
    state,
    error,
    allLoaded,
    loadingOlder: olderBusy,
    progress,
    loadOlder,
    sendText,
    sendMedia,
    sendLocation,
    retry,
    canRetry: (message: AnyMessage) => remakes.current.has(message.messageId),
    recall,
    remove,
  };
}
