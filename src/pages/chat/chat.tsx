import { useRouteRecord } from '@/core/use-route-record';
import { useSignedInUser } from '@/features/account/use-signed-in';
import { CardView, CsComposer, CsMessageList } from '@/features/cs/CsChat';
import { type Card, customerStatusText, goodsCard, orderCard } from '@/features/cs/support';
import { useCsCustomer } from '@/features/cs/use-cs-customer';
import { fetchGoods } from '@/features/goods/api';
import { fetchOrder } from '@/features/order/api';
import { StateView } from '@/ui/shop/StateView';
import { Text, View } from '@tarojs/components';
import { useRouter } from '@tarojs/taro';
import { useEffect, useState } from 'react';

const isId = (value: string) => /^\d+$/.test(value);

/** The card the page was opened for: a product (`goods_id`) or one of the shopper's orders (`order_id`). */
function useContextCard(goodsId: string, orderId: string, enabled: boolean) {
  const [card, setCard] = useState<Card | null>(null);
  const [ready, setReady] = useState(!isId(goodsId) && !isId(orderId));
  useEffect(() => {
    if (!enabled) return;
    const load = isId(orderId)
      ? fetchOrder(Number(orderId)).then((order) => (order ? orderCard(order) : null))
      : isId(goodsId)
        ? fetchGoods(Number(goodsId)).then(goodsCard)
        : Promise.resolve(null);
    load.then(
      (found) => {
        setCard(found);
        setReady(true);
      },
      // Without its card the chat still works: the shopper can say what it is about.
      () => setReady(true),
    );
  }, [goodsId, orderId, enabled]);
  return { card, ready };
}

/** The shopper's support chat (shop-app.md §2 /pages/chat/chat). */
export default function CustomerServiceChat() {
  useRouteRecord();
  const user = useSignedInUser();
  const params = useRouter().params;
  const { card, ready } = useContextCard(String(params.goods_id ?? ''), String(params.order_id ?? ''), !!user);
  const chat = useCsCustomer(card, !!user && ready);
  if (!user) return null;
  if (chat.state !== 'ready') {
    return (
      <View className="chat">
        <StateView state={chat.state === 'error' ? 'error' : 'loading'} error={chat.error} />
      </View>
    );
  }
  return (
    <View className="chat cs">
      <View className={`cs__status cs__status--${chat.status.status.toLowerCase()}`}>
        <Text>{customerStatusText(chat.status, chat.ended)}</Text>
      </View>
      <CsMessageList
        messages={chat.messages}
        me={chat.me}
        mineSide={(message) => message.senderId === chat.me}
        banner={
          chat.messages.length === 0 ? (
            <Text className="chat__history">Ask us anything about frames, lenses or your order.</Text>
          ) : undefined
        }
      />
      {chat.cardPending && card && (
        <View className="cs__attached">
          <Text className="cs__attached-hint">Sent with your first message</Text>
          <CardView card={card} />
        </View>
      )}
      <CsComposer onText={(text) => void chat.sendText(text)} onImage={(file) => void chat.sendImage(file)} />
    </View>
  );
}
