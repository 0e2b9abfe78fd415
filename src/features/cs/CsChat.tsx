import { imageUrl } from '@/core/request';
import { PRODUCT_PAGE } from '@/features/goods/api';
import { Avatar } from '@/features/social/components';
import { type PickedFile, pickImages } from '@/features/social/media';
import type { AnyMessage, CSMessage } from '@/messaging';
import { Money } from '@/ui/shop/Money';
import { Image, Input, ScrollView, Text, View } from '@tarojs/components';
import Taro from '@tarojs/taro';
import { type ReactNode, useEffect, useState } from 'react';
import { type Card, type GoodsCard, type OrderCard, systemNotice } from './support';
import '@/features/chat/chat.css';
import './cs.css';

export function GoodsCardView({ card }: { card: GoodsCard }) {
  return (
    <View
      className="cs-card cs-card--goods"
      onClick={() => void Taro.navigateTo({ url: `${PRODUCT_PAGE}?id=${card.goods_id}` })}
    >
      <Image className="cs-card__thumb" src={imageUrl(card.goods_img)} mode="aspectFit" />
      <View className="cs-card__body">
        <Text className="cs-card__label">Product</Text>
        <Text className="cs-card__title">{card.goods_name}</Text>
        <Money value={card.price} className="cs-card__price" />
      </View>
    </View>
  );
}

export function OrderCardView({ card }: { card: OrderCard }) {
  return (
    <View className="cs-card cs-card--order">
      <View className="cs-card__head">
        <Text className="cs-card__label">Order {card.order_sn}</Text>
        <Text className="cs-card__status">{card.status}</Text>
      </View>
      {card.lines.map((line, index) => (
        <View className="cs-card__line" key={`${line.goods_id}-${index}`}>
          <Image className="cs-card__thumb cs-card__thumb--small" src={imageUrl(line.goods_img)} mode="aspectFit" />
          <View className="cs-card__body">
            <Text className="cs-card__title">
              {line.goods_name} × {line.quantity}
            </Text>
            <Text className="cs-card__muted">
              {line.color_name} · {line.lenses}
            </Text>
            {line.prescription && (
              <View className="cs-card__rx">
                <Text className="cs-card__muted">Prescription: {line.prescription.name}</Text>
                <Text className="cs-card__muted">OD {line.prescription.od}</Text>
                <Text className="cs-card__muted">OS {line.prescription.os}</Text>
                <Text className="cs-card__muted">{line.prescription.pd}</Text>
              </View>
            )}
          </View>
        </View>
      ))}
      <View className="cs-card__head">
        <Text className="cs-card__muted">Total</Text>
        <Money value={card.total} className="cs-card__price" />
      </View>
    </View>
  );
}

export function CardView({ card }: { card: Card }) {
  return card.type === 'goods' ? <GoodsCardView card={card.payload} /> : <OrderCardView card={card.payload} />;
}

function Content({ message }: { message: AnyMessage }) {
  const payload = message.payload as Record<string, unknown>;
  if (message.type === 'goods') return <GoodsCardView card={payload as unknown as GoodsCard} />;
  if (message.type === 'order') return <OrderCardView card={payload as unknown as OrderCard} />;
  if (message.type === 'image') {
    return <Image className="chat__image" src={imageUrl(String(payload.url ?? ''))} mode="widthFix" />;
  }
  if (message.type === 'text') return <Text className="chat__text">{String(payload.text ?? '')}</Text>;
  return <Text className="chat__text">[{message.type}]</Text>;
}

function isCard(message: AnyMessage): boolean {
  return message.type === 'goods' || message.type === 'order';
}

/**
 * A customer-service conversation: the customer's side on the left for an agent, on the right for the customer;
 * accept, transfer and end show as notices.
 */
export function CsMessageList({
  messages,
  me,
  mineSide,
  banner,
}: {
  messages: AnyMessage[];
  me: string;
  /** Whether a message shows on my side: the customer's own, or any agent's for an agent. */
  mineSide: (message: CSMessage) => boolean;
  banner?: ReactNode;
}) {
  const [bottom, setBottom] = useState('');
  const lastId = messages[messages.length - 1]?.messageId ?? '';
  useEffect(() => {
    if (lastId) setBottom(`m-${lastId}`);
  }, [lastId]);

  return (
    <ScrollView className="chat__list cs__list" scrollY scrollIntoView={bottom}>
      {banner}
      {messages.map((message) => {
        const cs = message as CSMessage;
        const notice = systemNotice(cs, me);
        if (notice) {
          return (
            <View key={message.messageId} id={`m-${message.messageId}`} className="chat__notice">
              <Text>{notice}</Text>
            </View>
          );
        }
        const mine = mineSide(cs);
        const sender = cs.senderData as { name?: string; avatar?: string };
        const name = sender?.name || `User ${cs.senderId}`;
        return (
          <View
            key={message.messageId}
            id={`m-${message.messageId}`}
            className={`chat__row ${mine ? 'chat__row--mine' : ''}`}
          >
            {!mine && <Avatar url={sender?.avatar ?? ''} name={name} size="small" />}
            <View className="chat__column">
              {!mine && <Text className="chat__sender">{name}</Text>}
              {isCard(message) ? (
                <Content message={message} />
              ) : (
                <View className={`chat__bubble ${mine ? 'chat__bubble--mine' : ''}`}>
                  <Content message={message} />
                </View>
              )}
              {message.senderId === me && message.status !== 'success' && (
                <Text className="chat__status">{message.status === 'fail' ? 'Not sent' : 'Sending…'}</Text>
              )}
            </View>
          </View>
        );
      })}
    </ScrollView>
  );
}

export function CsComposer({
  onText,
  onImage,
  disabled,
  placeholder = 'Message',
}: {
  onText: (text: string) => void;
  onImage: (file: PickedFile) => void;
  disabled?: boolean;
  placeholder?: string;
}) {
  const [draft, setDraft] = useState('');
  const submit = () => {
    if (disabled || draft.trim() === '') return;
    const text = draft;
    setDraft('');
    onText(text);
  };
  const attach = async () => {
    if (disabled) return;
    const [file] = await pickImages(1);
    if (file) onImage(file);
  };
  return (
    <View className={`chat__composer ${disabled ? 'cs__composer--off' : ''}`}>
      <View className="chat__attach" onClick={() => void attach()}>
        <Text>+</Text>
      </View>
      <Input
        className="chat__input"
        name="message"
        value={draft}
        disabled={disabled}
        maxlength={2000}
        confirmType="send"
        placeholder={placeholder}
        onInput={(event) => setDraft(event.detail.value)}
        onConfirm={submit}
      />
      <View className={`chat__send ${draft.trim() === '' || disabled ? 'chat__send--off' : ''}`} onClick={submit}>
        <Text>Send</Text>
      </View>
    </View>
  );
}
