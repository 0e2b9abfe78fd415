import { imageUrl } from '@/core/request';
import { Avatar } from '@/features/social/components';
import { pickImages } from '@/features/social/media';
import type { AnyMessage, GroupMessage, PrivateMessage } from '@/messaging';
import { StateView } from '@/ui/shop/StateView';
import { Image, Input, ScrollView, Text, View } from '@tarojs/components';
import { useEffect, useState } from 'react';
import type { useConversation } from './use-conversation';
import './chat.css';

type Conversation = ReturnType<typeof useConversation>;

function senderName(
  message: AnyMessage,
  names: Record<string, { name: string; avatar: string }>,
): { name: string; avatar: string } {
  const data = (message as GroupMessage).senderData as { name?: string; avatar?: string } | undefined;
  return names[message.senderId] ?? { name: data?.name ?? `User ${message.senderId}`, avatar: data?.avatar ?? '' };
}

function Bubble({ message }: { message: AnyMessage }) {
  const payload = message.payload as Record<string, unknown>;
  if (message.type === 'image') {
    return <Image className="chat__image" src={imageUrl(String(payload.url ?? ''))} mode="widthFix" />;
  }
  if (message.type === 'text') return <Text className="chat__text">{String(payload.text ?? '')}</Text>;
  return <Text className="chat__text">[{message.type}]</Text>;
}

/** The chat screen shared by private and group chat: messages, read receipts, recall and delete, and the composer. */
export function ChatView({
  conversation,
  names,
  showReceipts,
}: { conversation: Conversation; names: Record<string, { name: string; avatar: string }>; showReceipts: boolean }) {
  const { me, messages, state, error, allLoaded, loadOlder, sendText, sendImage, recall, remove } = conversation;
  const [draft, setDraft] = useState('');
  const [chosen, setChosen] = useState<string | null>(null);
  const [bottom, setBottom] = useState('');
  const lastId = messages[messages.length - 1]?.messageId ?? '';

  useEffect(() => {
    if (lastId) setBottom(`m-${lastId}`);
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
  const attach = async () => {
    const [file] = await pickImages(1);
    if (file) void sendImage(file);
  };

  return (
    <View className="chat">
      <ScrollView
        className="chat__list"
        scrollY
        scrollIntoView={bottom}
        upperThreshold={40}
        onScrollToUpper={() => void loadOlder()}
      >
        <Text className="chat__history">
          {allLoaded ? 'Start of the conversation' : 'Scroll up for earlier messages'}
        </Text>
        {messages.map((message) => {
          const mine = message.senderId === me;
          const sender = senderName(message, names);
          if (message.recalled) {
            return (
              <View key={message.messageId} id={`m-${message.messageId}`} className="chat__notice">
                <Text>{mine ? 'You recalled a message' : `${sender.name} recalled a message`}</Text>
              </View>
            );
          }
          return (
            <View
              key={message.messageId}
              id={`m-${message.messageId}`}
              className={`chat__row ${mine ? 'chat__row--mine' : ''}`}
            >
              {!mine && <Avatar url={sender.avatar} name={sender.name} size="small" />}
              <View className="chat__column">
                {!mine && !showReceipts && <Text className="chat__sender">{sender.name}</Text>}
                <View
                  className={`chat__bubble ${mine ? 'chat__bubble--mine' : ''}`}
                  onClick={() => setChosen(chosen === message.messageId ? null : message.messageId)}
                >
                  <Bubble message={message} />
                </View>
                {mine && (
                  <Text className="chat__status">
                    {message.status === 'sending'
                      ? 'Sending…'
                      : message.status === 'fail'
                        ? 'Not sent'
                        : showReceipts
                          ? (message as PrivateMessage).read
                            ? 'Read'
                            : 'Unread'
                          : ''}
                  </Text>
                )}
                {chosen === message.messageId && (
                  <View className="chat__tools">
                    {mine && message.status === 'success' && (
                      <Text className="chat__tool" onClick={() => void recall(message).then(() => setChosen(null))}>
                        Recall
                      </Text>
                    )}
                    <Text
                      className="chat__tool chat__tool--danger"
                      onClick={() => void remove(message).then(() => setChosen(null))}
                    >
                      Delete
                    </Text>
                  </View>
                )}
              </View>
            </View>
          );
        })}
      </ScrollView>
      <View className="chat__composer">
        <View className="chat__attach" onClick={() => void attach()}>
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
