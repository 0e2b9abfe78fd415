import { useRouteRecord } from '@/core/use-route-record';
import { useSignedInUser } from '@/features/account/use-signed-in';
import { describeMessage } from '@/features/chat/describe';
import { CsComposer, CsMessageList } from '@/features/cs/CsChat';
import { AGENTS_ONLY, agentStatusText, customerName, customerOfConversation } from '@/features/cs/support';
import { type ConversationDTO, type Session, type User, useCsAgent } from '@/features/cs/use-cs-agent';
import { Avatar } from '@/features/social/components';
import { EmptyView, StateView } from '@/ui/shop/StateView';
import { Text, View } from '@tarojs/components';
import { useEffect, useState } from 'react';

type Agent = ReturnType<typeof useCsAgent>;

function ConversationRow({ dto, me, onOpen }: { dto: ConversationDTO; me: string; onOpen: () => void }) {
  const { name, avatar } = customerOfConversation(dto);
  return (
    <View className="cs-row" onClick={onOpen}>
      <Avatar url={avatar} name={name} size="small" />
      <View className="cs-row__body">
        <Text className="cs-row__name">{name}</Text>
        <Text className="cs-row__preview">{describeMessage(dto.lastMessage, me)}</Text>
      </View>
      {dto.unread > 0 && <Text className="cs-row__unread">{dto.unread}</Text>}
    </View>
  );
}

function Lists({ agent }: { agent: Agent }) {
  return (
    <View className="cs-desk__lists">
      <Text className="cs-desk__heading">Waiting ({agent.pending.length})</Text>
      {agent.pending.length === 0 && (
        <Text className="cs-desk__empty">
          {agent.online ? 'Nobody is waiting.' : 'Go online to see the customers who are waiting.'}
        </Text>
      )}
      {agent.pending.map((dto) => (
        <ConversationRow key={String(dto.id)} dto={dto} me={agent.me} onOpen={() => void agent.openSession(dto)} />
      ))}
      <Text className="cs-desk__heading">My conversations ({agent.mine.length})</Text>
      {agent.mine.length === 0 && <Text className="cs-desk__empty">No open conversations.</Text>}
      {agent.mine.map((dto) => (
        <ConversationRow key={String(dto.id)} dto={dto} me={agent.me} onOpen={() => void agent.openSession(dto)} />
      ))}
    </View>
  );
}

function TransferPicker({ agent, onDone }: { agent: Agent; onDone: () => void }) {
  const [agents, setAgents] = useState<User[] | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: asks once each time the picker opens
  useEffect(() => {
    agent.otherAgents().then(setAgents, () => setAgents([]));
  }, []);
  if (agents === null) {
    return <Text className="cs-desk__empty">Looking for agents online…</Text>;
  }
  return (
    <View className="cs-transfer">
      <Text className="cs-desk__heading">Transfer to</Text>
      {agents.length === 0 && <Text className="cs-desk__empty">No other agent is online.</Text>}
      {agents.map((other) => {
        const name = String((other.data as { name?: string } | undefined)?.name || `Agent ${other.id}`);
        return (
          <View
            key={other.id}
            className="cs-transfer__agent"
            onClick={() => void Promise.resolve(agent.transfer(other.id)).then(onDone)}
          >
            <Text>{name}</Text>
          </View>
        );
      })}
      <Text className="cs-transfer__cancel" onClick={onDone}>
        Cancel
      </Text>
    </View>
  );
}

function placeholderFor(status: string): string {
  if (status === 'PENDING') return 'Accept the conversation to reply';
  return status === 'FREE' ? 'No open session with this customer' : 'Another agent is serving';
}

function SessionView({ agent, session }: { agent: Agent; session: Session }) {
  const [transferring, setTransferring] = useState(false);
  const { status } = session;
  const serving = status.status === 'ACCEPTED' && status.agent?.id === agent.me;
  const canAccept = status.status === 'PENDING';
  return (
    <View className="chat cs">
      <View className="cs-session__bar">
        <Text className="cs-session__back" onClick={agent.closeSession}>
          ‹ All
        </Text>
        <View className="cs-session__who">
          <Text className="cs-session__name">{customerName(session.data, session.customerId)}</Text>
          <Text className="cs-session__status">{agentStatusText(status, agent.me)}</Text>
        </View>
      </View>
      <View className="cs-session__actions">
        {canAccept && agent.online && (
          <Text className="cs-action cs-action--primary" onClick={() => void agent.accept()}>
            Accept
          </Text>
        )}
        {canAccept && !agent.online && <Text className="cs-desk__empty">Go online to accept.</Text>}
        {serving && (
          <Text className="cs-action" onClick={() => setTransferring(!transferring)}>
            Transfer
          </Text>
        )}
        {serving && (
          <Text className="cs-action cs-action--danger" onClick={() => void agent.end()}>
            End
          </Text>
        )}
      </View>
      {transferring && serving && <TransferPicker agent={agent} onDone={() => setTransferring(false)} />}
      <CsMessageList
        messages={session.messages}
        me={agent.me}
        mineSide={(message) => message.senderId !== session.customerId}
      />
      <CsComposer
        disabled={!serving}
        placeholder={serving ? 'Reply to the customer' : placeholderFor(status.status)}
        onText={(text) => void agent.sendText(text)}
        onImage={(file) => void agent.sendImage(file)}
      />
    </View>
  );
}

/** The agent's side of customer service (shop-app.md §2 /pages/chat/chat2): administrators only. */
export default function SupportDesk() {
  useRouteRecord();
  const user = useSignedInUser();
  const isAgent = !!user?.is_admin;
  const agent = useCsAgent(isAgent);
  if (!user) return null;
  if (!isAgent) {
    return (
      <View className="cs-desk">
        <EmptyView title={AGENTS_ONLY} />
      </View>
    );
  }
  if (agent.state !== 'ready') {
    return (
      <View className="cs-desk">
        <StateView state={agent.state === 'error' ? 'error' : 'loading'} error={agent.error} />
      </View>
    );
  }
  if (agent.session) return <SessionView agent={agent} session={agent.session} />;
  return (
    <View className="cs-desk">
      <View className={`cs-desk__presence ${agent.online ? 'cs-desk__presence--on' : ''}`}>
        <Text className="cs-desk__presence-text">{agent.online ? 'You are online' : 'You are offline'}</Text>
        <Text
          className="cs-action cs-action--primary"
          onClick={() => void (agent.online ? agent.goOffline() : agent.goOnline())}
        >
          {agent.online ? 'Go offline' : 'Go online'}
        </Text>
      </View>
      <Lists agent={agent} />
    </View>
  );
}
