import GoEasy from '../../src/messaging';
import { type TestServer, eventually, startServer } from './support/harness';

/**
 * Issue 22 "done when": the flows of GoEasy's own demo apps run on this SDK with only the import changed. The calls
 * below are those of goeasy-io/web-im-demo (web/src/views: Conversations.vue, PrivateChat.vue, GroupChat.vue) and
 * goeasy-io/demo-customr-support (support/web/src/views: Home.vue, Conversations.vue, Chat.vue), in their callback
 * style and with their option objects, reduced to what a page does with the answers (Vue's `this.x = ...` becomes a
 * field of the page object). Their `import GoEasy from 'goeasy'` is the import above; the only other addition is
 * the identity proof (`otp`) our server requires at connect.
 */
let server: TestServer;
const pages: Array<{ goEasy: GoEasy }> = [];

beforeAll(async () => {
  server = await startServer();
  for (const agent of ['demo-agent-1', 'demo-agent-2']) await server.assignAgent('demo-shop', agent);
});

afterAll(async () => {
  for (const page of pages) await page.goEasy.disconnect({}).catch(() => undefined);
  await server.stop();
});

/** main.js: `GoEasy.getInstance({host, appkey, modules})`, one per app (here one per simulated device). */
function app(modules: string[]) {
  return new GoEasy({ host: server.url, appkey: 'BC-lensmate-demo', modules });
}

/** Login.vue / Home.vue: connect with the user's id and data. */
function connectGoEasy(goEasy: GoEasy, currentUser: { id: string; name: string; avatar: string }): Promise<void> {
  return new Promise((resolve, reject) => {
    goEasy.connect({
      id: currentUser.id,
      data: { name: currentUser.name, avatar: currentUser.avatar },
      otp: server.otp(currentUser.id),
      onSuccess: () => resolve(),
      onFailed: (error) => reject(error),
      onProgress: () => undefined,
    });
  });
}

/** web-im-demo Conversations.vue, as a page object. */
class ConversationsPage {
  conversations: any[] = [];
  constructor(
    readonly goEasy: GoEasy,
    readonly GoEasyClass = GoEasy,
  ) {}
  mounted(groupIds: string[]) {
    this.listenConversationUpdate();
    this.loadConversations();
    this.subscribeGroup(groupIds);
  }
  loadConversations() {
    this.goEasy.im.latestConversations({
      onSuccess: (result) => {
        const content = result.content;
        this.renderConversations(content);
      },
      onFailed: (error) => {
        throw new Error(`latestConversations failed, code:${error.code} content:${error.content}`);
      },
    });
  }
  listenConversationUpdate() {
    this.goEasy.im.on(this.GoEasyClass.IM_EVENT.CONVERSATIONS_UPDATED, this.renderConversations);
  }
  renderConversations = (content: { conversations: any[] }) => {
    this.conversations = content.conversations;
  };
  subscribeGroup(groupIds: string[]) {
    this.goEasy.im.subscribeGroup({ groupIds, onSuccess() {}, onFailed() {} });
  }
  topConversation(conversation: any): Promise<void> {
    return new Promise((resolve, reject) =>
      this.goEasy.im.topConversation({
        conversation,
        top: !conversation.top,
        onSuccess: () => resolve(),
        onFailed: (error) => reject(error),
      }),
    );
  }
  deleteConversation(conversation: any): Promise<void> {
    return new Promise((resolve, reject) =>
      this.goEasy.im.removeConversation({ conversation, onSuccess: () => resolve(), onFailed: reject }),
    );
  }
  beforeDestroy() {
    this.goEasy.im.off(this.GoEasyClass.IM_EVENT.CONVERSATIONS_UPDATED, this.renderConversations);
  }
}

/** web-im-demo PrivateChat.vue and GroupChat.vue (the group page differs in `to` and the event). */
class ChatPage {
  history = { messages: [] as any[], loading: false, allLoaded: false };
  to: { type: any; id: string; data: { name: string; avatar: string } };
  text = '';
  constructor(
    readonly goEasy: GoEasy,
    readonly friend: { id: string; name: string; avatar: string },
    readonly group = false,
  ) {
    this.to = {
      type: group ? GoEasy.IM_SCENE.GROUP : GoEasy.IM_SCENE.PRIVATE,
      id: friend.id,
      data: { name: friend.name, avatar: friend.avatar },
    };
  }
  created() {
    this.loadHistoryMessage(true);
    const event = this.group ? GoEasy.IM_EVENT.GROUP_MESSAGE_RECEIVED : GoEasy.IM_EVENT.PRIVATE_MESSAGE_RECEIVED;
    this.goEasy.im.on(event, this.onReceivedMessage);
  }
  onReceivedMessage = (message: any) => {
    const mine = this.group ? message.groupId === this.friend.id : message.senderId === this.friend.id;
    if (mine) {
      this.history.messages.push(message);
      this.markMessageAsRead();
    }
  };
  sendTextMessage() {
    if (!this.text.trim()) return;
    this.goEasy.im.createTextMessage({
      text: this.text,
      to: this.to,
      onSuccess: (message) => {
        this.sendMessage(message);
        this.text = '';
      },
      onFailed: (err) => {
        throw new Error(`createTextMessage failed: ${JSON.stringify(err)}`);
      },
    });
  }
  sent: any[] = [];
  sendMessage(message: any) {
    this.history.messages.push(message);
    this.goEasy.im.sendMessage({
      message,
      onSuccess: (sent) => this.sent.push(sent),
      onFailed: (error) => {
        throw new Error(`sendMessage failed: ${JSON.stringify(error)}`);
      },
    });
  }
  recallMessage(messages: any[]): Promise<void> {
    return new Promise((resolve, reject) =>
      this.goEasy.im.recallMessage({ messages, onSuccess: () => resolve(), onFailed: reject }),
    );
  }
  loadHistoryMessage(_scrollToBottom: boolean) {
    this.history.loading = true;
    let lastMessageTimeStamp: number | undefined;
    const lastMessage = this.history.messages[0];
    if (lastMessage) lastMessageTimeStamp = lastMessage.timestamp;
    const query = this.group ? { groupId: this.friend.id } : { userId: this.friend.id };
    this.goEasy.im.history({
      ...query,
      lastTimestamp: lastMessageTimeStamp,
      limit: 10,
      onSuccess: (result) => {
        this.history.loading = false;
        const messages = result.content;
        if (messages.length === 0) this.history.allLoaded = true;
        else {
          this.history.messages = lastMessageTimeStamp ? messages.concat(this.history.messages) : messages;
          if (messages.length < 10) this.history.allLoaded = true;
          this.markMessageAsRead();
        }
      },
      onFailed: (error) => {
        this.history.loading = false;
        throw new Error(`history failed, code:${error.code}, content:${error.content}`);
      },
    });
  }
  markMessageAsRead() {
    this.goEasy.im.markMessageAsRead({ id: this.to.id, type: this.to.type, onSuccess() {}, onFailed() {} });
  }
}

describe("web-im-demo's flows", () => {
  it('conversation list, private chat with history and read receipts, recall, group chat, top and remove', async () => {
    const wallace = { id: 'demo-wallace', name: 'Wallace', avatar: '/w.png' };
    const tracy = { id: 'demo-tracy', name: 'Tracy', avatar: '/t.png' };
    const wallaceApp = app(['im']);
    const tracyApp = app(['im']);
    pages.push({ goEasy: wallaceApp }, { goEasy: tracyApp });
    await connectGoEasy(wallaceApp, wallace);
    await connectGoEasy(tracyApp, tracy);

    const tracyList = new ConversationsPage(tracyApp);
    tracyList.mounted(['demo-group']);
    const wallaceList = new ConversationsPage(wallaceApp);
    wallaceList.mounted(['demo-group']);

    const wallaceChat = new ChatPage(wallaceApp, tracy);
    wallaceChat.created();
    wallaceChat.text = 'Hello Tracy';
    wallaceChat.sendTextMessage();
    await eventually(() => expect(wallaceChat.sent.map((m) => m.status)).toEqual(['success']));
    await eventually(() =>
      expect(tracyList.conversations.map((c) => [c.type, c.userId, c.unread, c.data.name])).toEqual([
        ['private', 'demo-wallace', 1, 'Wallace'],
      ]),
    );
    // Wallace's message reads `read` once Tracy opens the chat (history, then markMessageAsRead).
    const tracyChat = new ChatPage(tracyApp, wallace);
    tracyChat.created();
    await eventually(() => expect(tracyChat.history.messages.map((m) => m.payload.text)).toEqual(['Hello Tracy']));
    await eventually(() => expect(wallaceChat.sent[0].read).toBe(true));
    await eventually(() => expect(tracyList.conversations[0].unread).toBe(0));
    tracyChat.text = 'Hi Wallace';
    tracyChat.sendTextMessage();
    await eventually(() =>
      expect(wallaceChat.history.messages.map((m) => m.payload.text)).toEqual(['Hello Tracy', 'Hi Wallace']),
    );
    await wallaceChat.recallMessage([wallaceChat.sent[0]]);
    await eventually(() => expect(tracyChat.history.messages[0].recalled).toBe(true));

    const tracyGroup = new ChatPage(tracyApp, { id: 'demo-group', name: 'Frames club', avatar: '/g.png' }, true);
    const wallaceGroup = new ChatPage(wallaceApp, { id: 'demo-group', name: 'Frames club', avatar: '/g.png' }, true);
    tracyGroup.created();
    wallaceGroup.created();
    await eventually(() => expect(wallaceGroup.history.loading).toBe(false));
    tracyGroup.text = 'Round or square?';
    tracyGroup.sendTextMessage();
    await eventually(() =>
      expect(wallaceGroup.history.messages.map((m) => m.payload.text)).toEqual(['Round or square?']),
    );
    await eventually(() => expect(wallaceList.conversations.map((c) => c.type)).toEqual(['group', 'private']));

    await wallaceList.topConversation(wallaceList.conversations[1]);
    await eventually(() =>
      expect(wallaceList.conversations.map((c) => [c.type, c.top])).toEqual([
        ['private', true],
        ['group', false],
      ]),
    );
    await wallaceList.deleteConversation(wallaceList.conversations[1]);
    await eventually(() => expect(wallaceList.conversations.map((c) => c.type)).toEqual(['private']));
    wallaceList.beforeDestroy();
  });
});

describe("demo-customr-support's agent console", () => {
  it('goes online, sees the pending customer, accepts, transfers, ends', async () => {
    const customer = { id: 'demo-customer', name: 'Customer', avatar: '/c.png' };
    const agent1 = { id: 'demo-agent-1', name: 'Agent 1', avatar: '/a1.png', shopId: 'demo-shop' };
    const agent2 = { id: 'demo-agent-2', name: 'Agent 2', avatar: '/a2.png', shopId: 'demo-shop' };
    const customerApp = app(['im']);
    const agentApp = app(['im']);
    const otherApp = app(['im']);
    pages.push({ goEasy: customerApp }, { goEasy: agentApp }, { goEasy: otherApp });
    await connectGoEasy(customerApp, customer);
    await connectGoEasy(agentApp, agent1);
    await connectGoEasy(otherApp, agent2);

    // Home.vue: the unread and pending badges, isOnline, online().
    const home = { unreadAmount: 0, pendingConversationAmount: 0, online: false as boolean | undefined };
    agentApp.im.on(GoEasy.IM_EVENT.CONVERSATIONS_UPDATED, (content: any) => {
      home.unreadAmount = content.unreadTotal;
    });
    agentApp.im.on(GoEasy.IM_EVENT.PENDING_CONVERSATIONS_UPDATED, (content: any) => {
      home.pendingConversationAmount = content.conversations.length;
    });
    const csteam = agentApp.im.csteam(agent1.shopId);
    const isOnline = () =>
      new Promise<boolean>((resolve, reject) =>
        csteam.isOnline({ onSuccess: (result) => resolve(result), onFailed: reject }),
      );
    home.online = await isOnline();
    expect(home.online).toBe(false);
    const online = (team: ReturnType<GoEasy['im']['csteam']>, who: typeof agent1) =>
      new Promise<void>((resolve, reject) =>
        team.online({
          teamData: { name: 'Demo shop', avatar: '/shop.png' },
          agentData: { name: who.name, avatar: who.avatar },
          onSuccess: () => resolve(),
          onFailed: reject,
        }),
      );
    await online(csteam, agent1);
    await online(otherApp.im.csteam(agent2.shopId), agent2);
    expect(await isOnline()).toBe(true);

    // Conversations.vue (support): pending and latest lists.
    const lists = { pending: [] as any[], latest: [] as any[] };
    agentApp.im.pendingConversations({
      onSuccess: (result) => {
        lists.pending = result.content.conversations;
      },
      onFailed() {},
    });
    agentApp.im.on(GoEasy.IM_EVENT.PENDING_CONVERSATIONS_UPDATED, (content: any) => {
      lists.pending = content.conversations;
    });
    agentApp.im.on(GoEasy.IM_EVENT.CONVERSATIONS_UPDATED, (content: any) => {
      lists.latest = content.conversations;
    });
    agentApp.im.latestConversations({
      onSuccess: (result) => {
        lists.latest = result.content.conversations;
      },
      onFailed() {},
    });

    // The customer's app writes to the shop (customer/uniapp chat.vue: to {type: cs, id: shopId}).
    customerApp.im.createTextMessage({
      text: 'Do you have blue frames?',
      to: { type: GoEasy.IM_SCENE.CS, id: 'demo-shop', data: { name: 'Demo shop', avatar: '/shop.png' } },
      onSuccess: (message) => customerApp.im.sendMessage({ message, onSuccess() {}, onFailed() {} }),
      onFailed() {},
    });
    await eventually(() =>
      expect(lists.pending.map((c) => [c.type, c.id, c.data.name])).toEqual([['cs', 'demo-customer', 'Customer']]),
    );
    expect(home.pendingConversationAmount).toBe(1);

    // Chat.vue: listenCustomer, history, accept, agents, transfer; the other agent ends.
    const chat = { customerStatus: null as any, messages: [] as any[] };
    csteam.listenCustomer({
      id: customer.id,
      onSuccess: () => undefined,
      onFailed: (error) => {
        throw new Error(`listenCustomer failed: ${JSON.stringify(error)}`);
      },
      onStatusUpdated: (customerStatus) => {
        chat.customerStatus = customerStatus;
      },
      onNewMessage: (message) => {
        if (chat.messages.findIndex((known) => known.messageId === message.messageId) < 0) chat.messages.push(message);
      },
    });
    csteam.history({
      id: customer.id,
      type: GoEasy.IM_SCENE.CS,
      limit: 10,
      onSuccess: (result) => {
        chat.messages = result.content;
      },
      onFailed() {},
    });
    await eventually(() => expect(chat.messages.map((m) => m.payload.text)).toEqual(['Do you have blue frames?']));
    if (await isOnline()) {
      await new Promise<void>((resolve, reject) =>
        csteam.accept({
          customer: { id: customer.id, data: { name: customer.name, avatar: customer.avatar } },
          onSuccess: () => resolve(),
          onFailed: reject,
        }),
      );
    }
    await eventually(() => expect(chat.customerStatus).toMatchObject({ status: 'ACCEPTED', agent: { id: agent1.id } }));
    await eventually(() => expect(lists.pending).toEqual([]));
    await eventually(() => expect(lists.latest.map((c) => [c.type, c.id])).toEqual([['cs', 'demo-customer']]));
    csteam.markMessageAsRead({ type: GoEasy.IM_SCENE.CS, id: customer.id, onSuccess() {}, onFailed() {} });
    await eventually(() => expect(home.unreadAmount).toBe(0));

    const agents = await new Promise<any[]>((resolve, reject) =>
      csteam.agents({
        onSuccess: (result) => resolve(result.content.filter((a: any) => a.id !== agent1.id)),
        onFailed: reject,
      }),
    );
    expect(agents.map((a) => [a.id, a.data.name])).toEqual([['demo-agent-2', 'Agent 2']]);
    await new Promise<void>((resolve, reject) =>
      csteam.transfer({ customerId: customer.id, agentId: agents[0].id, onSuccess: () => resolve(), onFailed: reject }),
    );
    await eventually(() => expect(chat.customerStatus).toMatchObject({ status: 'ACCEPTED', agent: { id: agent2.id } }));
    await new Promise<void>((resolve, reject) =>
      otherApp.im.csteam('demo-shop').end({ id: customer.id, onSuccess: () => resolve(), onFailed: reject }),
    );
    await eventually(() => expect(chat.customerStatus).toEqual({ status: 'FREE' }));
    csteam.cancelListenCustomer({ onSuccess() {}, onFailed() {} });
    await new Promise<void>((resolve, reject) => csteam.offline({ onSuccess: () => resolve(), onFailed: reject }));
    expect(await isOnline()).toBe(false);
  });
});
