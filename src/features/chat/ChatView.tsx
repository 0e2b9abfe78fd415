import { Avatar } from '@/features/social/components';
import type { AnyMessage, GroupMessage, PrivateMessage } from '@/messaging';
import { StateView } from '@/ui/shop/StateView';
import { Input, ScrollView, Text, View } from '@tarojs/components';
import { useEffect, useState } from 'react';
import { MessageBody, viewImage } from './MessageBody';
import { NotifyPrompt } from './NotifyPrompt';
import { askForPlace } from './location';
import { pickMedia } from './pickers';
import type { MediaKind, useConversation } from './use-conversation';
import './chat.css';

type Conversation = ReturnType<typeof useConversation>;
type Names = Record<string, { name: string; avatar: string }>;

/** Presence shown above the messages: a dot (online or not) and a line of text. */
export interface PresenceLine {
  on: boolean;
  text: string;
}

const ATTACHMENTS: { kind: MediaKind | 'location'; label: string; icon: string }[] = [
  { kind: 'image', label: 'Photo', icon: '▣' },
  { kind: 'video', label: 'Video', icon: '▶' },
  { kind: 'audio', label: 'Audio', icon: '♪' },
  { kind: 'file', label: 'File', icon: '≡' },
  { kind: 'location', label: 'Location', icon: '' },
];

function senderName(message: AnyMessage, names: Names): { name: string; avatar: string } {
  const data = (message as GroupMessage).senderData as { name?: string; avatar?: string } | undefined;
  return names[message.senderId] ?? { name: data?.name ?? `User ${message.senderId}`, avatar: data?.avatar ?? '' };
}

function statusText(message: AnyMessage, showReceipts: boolean, progress: number | null | undefined): string {
  if (message.status === 'sending') {
    if (progress === undefined) return 'Sending…';
    return progress === null ? 'Uploading…' : `Uploading ${Math.round(progress)}%`;
  }
  if (message.status === 'fail') return 'Not sent';
  if (!showReceipts) return '';
  return (message as PrivateMessage).read ? 'Read' : 'Unread';
}

function MessageRow({
  message,
  conversation,
  names,
  showReceipts,
  chosen,
  choose,
}: {
  message: AnyMessage;
  conversation: Conversation;
  names: Names;
  showReceipts: boolean;
  chosen: boolean;
  choose: (id: string | null) => void;
}) {
  const { me, progress, recall, remove, retry, canRetry } = conversation;
  const mine = message.senderId === me;
  const sender = senderName(message, names);
  if (message.recalled) {
    return (
      <View id={`m-${message.messageId}`} className="chat__notice">
        <Text>{mine ? 'You recalled a message' : `${sender.name} recalled a message`}</Text>
      </View>
    );
  }
  const uploading = message.status === 'sending' ? progress[message.messageId] : undefined;
  return (
    <View id={`m-${message.messageId}`} className={`chat__row ${mine ? 'chat__row--mine' : ''}`}>
      {!mine && <Avatar url={sender.avatar} name={sender.name} size="small" />}
      <View className="chat__column">
        {!mine && !showReceipts && <Text className="chat__sender">{sender.name}</Text>}
        <View
          className={`chat__bubble chat__bubble--${message.type} ${mine ? 'chat__bubble--mine' : ''}`}
          onClick={() => choose(chosen ? null : message.messageId)}
        >
          <MessageBody message={message} />
          {uploading !== undefined && (
            <View className="chat__progress">
              <View
                className={`chat__progress-bar ${uploading === null ? 'chat__progress-bar--unknown' : ''}`}
                style={{ width: `${Math.round(uploading ?? 100)}%` }}
              />
            </View>
          )}
        </View>
        {mine && (
          <View className="chat__status-line">
            <Text className={`chat__status ${message.status === 'fail' ? 'chat__status--fail' : ''}`}>
              {statusText(message, showReceipts, uploading)}
            </Text>
            {message.status === 'fail' && canRetry(message) && (
              <Text className="chat__retry" onClick={() => void retry(message)}>
                Retry
              </Text>
            )}
          </View>
        )}
        {chosen && (
          <View className="chat__tools">
            {message.type === 'image' && (
              <Text className="chat__tool" onClick={() => viewImage(message)}>
                View
              </Text>
            )}
            {mine && message.status === 'success' && (
              <Text className="chat__tool" onClick={() => void recall(message).then(() => choose(null))}>
                Recall
              </Text>
            )}
            <Text
              className="chat__tool chat__tool--danger"
              onClick={() => void remove(message).then(() => choose(null))}
            >
              Delete
            </Text>
          </View>
        )}
      </View>
    </View>
  );
}

/**
 * The chat screen shared by private and group chat: presence, messages of every type (older ones as the user
 * scrolls up), upload progress, failures with retry, read receipts, recall and delete, and the composer.
 */
export function ChatView({
  conversation,
  names,
  showReceipts,
  presence,
}: { conversation: Conversation; names: Names; showReceipts: boolean; presence?: PresenceLine | null }) {
  const { messages, state, error, allLoaded, loadingOlder, loadOlder, sendText, sendMedia, sendLocation } =
    conversation;
  const [draft, setDraft] = useState('');
  const [chosen, setChosen] = useState<string | null>(null);
  const [panel, setPanel] = useState(false);
  const [anchor, setAnchor] = useState('');
  const firstId = messages[0]?.messageId ?? '';
  const lastId = messages[messages.length - 1]?.messageId ?? '';

  useEffect(() => {
    if (lastId) setAnchor(`m-${lastId}`);
  }, [lastId]);

  if (state !== 'ready') {
    return (
      <View className="chat">
        <StateView state={state === 'error' ? 'error' : 'loading'} error={error} />
      </View>
    );
  }

  const submit = () => {
    const text = draft;
    setDraft('');
    void sendText(text);
  };
  const earlier = async () => {
    const before = firstId;
    await loadOlder();
    // Keeps the message that was at the top in view instead of jumping to the oldest one loaded.
    if (before) setAnchor(`m-${before}`);
  };
  const attach = async (kind: MediaKind | 'location') => {
    setPanel(false);
    if (kind === 'location') {
      const place = await askForPlace();
      if (place) void sendLocation(place);
      return;
    }
    const picked = await pickMedia(kind);
    if (picked) void sendMedia(kind, picked);
  };

  return (
    <View className="chat">
      <NotifyPrompt />
      {presence && (
        <View className="chat__presence">
          <View className={`chat__dot ${presence.on ? 'chat__dot--on' : ''}`} />
          <Text>{presence.text}</Text>
        </View>
      )}
      <ScrollView
        className="chat__list"
        scrollY
        scrollIntoView={anchor}
        upperThreshold={40}
        onScrollToUpper={() => void earlier()}
      >
        {allLoaded ? (
          <Text className="chat__history">Start of the conversation</Text>
        ) : (
          <Text className="chat__history chat__history--more" onClick={() => void earlier()}>
            {loadingOlder ? 'Loading earlier messages…' : 'Scroll up or tap for earlier messages'}
          </Text>
        )}
        {messages.map((message) => (
          <MessageRow
            key={message.messageId}
            message={message}
            conversation={conversation}
            names={names}
            showReceipts={showReceipts}
            chosen={chosen === message.messageId}
            choose={setChosen}
          />
        ))}
      </ScrollView>
      {panel && (
        <View className="chat__panel">
          {ATTACHMENTS.map((item) => (
            <View key={item.kind} className="chat__panel-item" onClick={() => void attach(item.kind)}>
              <View className={`chat__panel-icon chat__panel-icon--${item.kind}`}>
                {/* No font here has a map-pin glyph: the pin is drawn, as in the location bubble. */}
                {item.icon ? <Text>{item.icon}</Text> : <View className="chat__panel-pin" />}
              </View>
              <Text className="chat__panel-label">{item.label}</Text>
            </View>
          ))}
        </View>
      )}
      <View className="chat__composer">
        <View className={`chat__attach ${panel ? 'chat__attach--open' : ''}`} onClick={() => setPanel(!panel)}>
          <Text>+</Text>
        </View>
        <Input
          className="chat__input"
          name="message"
          value={draft}
          maxlength={2000}
          confirmType="send"
          placeholder="Message"
          onInput={(event) => setDraft(event.detail.value)}
          onConfirm={submit}
        />
        <View className={`chat__send ${draft.trim() === '' ? 'chat__send--off' : ''}`} onClick={submit}>
          <Text>Send</Text>
        </View>
      </View>
    </View>
  );
}
