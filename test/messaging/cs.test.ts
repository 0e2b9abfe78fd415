import { type Client, type TestServer, connected, removeDir, sleep, startServer } from './helpers';

describe('customer service', () => {
  let server: TestServer;
  const clients: Client[] = [];
  async function user(id: string) {
    const { client } = await connected(server.url, id);
    clients.push(client);
    return client;
  }
  let seq = 0;
  function customerSays(client: Client, body: string) {
    seq += 1;
    return client.request('publishIM', {
      mt: 'text',
      to: 'shop',
      d: JSON.stringify({ name: 'Shop' }),
      p: JSON.stringify({ text: body }),
      t: 'cs',
      tid: 'shop',
      guid: `cs-${seq}`,
    });
  }
  const online = (client: Client, name: string) =>
    client.request('CS_ONLINE', {
      teamId: 'shop',
      teamData: JSON.stringify({ name: 'Shop' }),
      agentData: JSON.stringify({ name }),
    });

  beforeAll(async () => {
    server = await startServer();
    // The shop's admins make these users agents of the team; nobody else may act for it.
    for (const agent of ['agent1', 'agent2', 'agent3', 'agent4']) await server.assignAgent('shop', agent);
  });
  afterAll(async () => {
    for (const client of clients) client.close();
    await server.close();
    removeDir(server.dir);
  });

  it('runs a session from FREE through PENDING, ACCEPTED, transfer and end, with visibility rules', async () => {
    const agent1 = await user('agent1');
    const agent1Pad = await user('agent1');
    const agent2 = await user('agent2');
    const customer = await user('cust');
    expect(await online(agent1, 'Ann')).toMatchObject({ code: 200 });
    const [changed] = await agent1Pad.waitFor('CS_ONLINE_CHANGED');
    expect(changed).toEqual({ teamId: 'shop', online: true });
    await online(agent2, 'Ben');
    expect((await agent1.request('CS_MY_TEAMS', {})).content).toEqual(['shop']);
    const agents = await customer.request('CS_AGENTS', { teamId: 'shop' });
    expect(agents.content).toEqual([
      { id: 'agent1', data: JSON.stringify({ name: 'Ann' }) },
      { id: 'agent2', data: JSON.stringify({ name: 'Ben' }) },
    ]);

    const first = await customerSays(customer, 'I need glasses');
    expect(first).toMatchObject({ code: 200 });
    const sessionId = first.content.sessionId;
    expect(typeof sessionId).toBe('string');
    for (const agent of [agent1, agent2]) {
      const [message] = await agent.waitFor('imMessage');
      expect(message).toMatchObject({ t: 'cs', r: 'shop', s: 'cust', tid: 'shop', accepted: false, sessionId });
    }
    expect((await agent1.request('CS_CUSTOMER_STATUS', { teamId: 'shop', customerId: 'cust' })).content).toMatchObject({
      status: 'PENDING',
      sessionId,
    });
    const pending = await agent2.request('CS_PENDING_CONVERSATION', {});
    expect(pending.content).toHaveLength(1);
    expect(pending.content[0]).toMatchObject({
      customerData: JSON.stringify({ name: 'cust' }),
      lastMessage: { s: 'cust' },
    });
    expect(
      await agent1.request('topConversation', { type: 'cs', targetId: 'cust', teamId: 'shop', top: true }),
    ).toMatchObject({
      code: 400,
      content: 'pending conversation cannot be topped or removed.',
    });

    const accepted = await agent1.request('CS_ACCEPT', {
      teamId: 'shop',
      customer: { id: 'cust', data: JSON.stringify({ name: 'Cust' }) },
    });
    expect(accepted.content.message).toMatchObject({
      t: 'cs',
      mt: 'CS_ACCEPT',
      s: 'agent1',
      r: 'cust',
      accepted: true,
    });
    const acceptPush = (await customer.waitFor('imMessage'))[0];
    expect(acceptPush).toMatchObject({ mt: 'CS_ACCEPT', d: JSON.stringify({ name: 'Ann' }) });
    await agent2.waitFor('imMessage', 2);
    expect(
      await agent2.request('CS_ACCEPT', { teamId: 'shop', customer: { id: 'cust', data: '{"a":1}' } }),
    ).toMatchObject({
      code: 401,
    });
    const status = await customer.request('CS_CUSTOMER_STATUS', { teamId: 'shop', customerId: 'cust' });
    expect(status.content).toMatchObject({
      status: 'ACCEPTED',
      agent: { id: 'agent1', data: JSON.stringify({ name: 'Ann' }) },
    });

    const agent2Seen = agent2.count('imMessage');
    await customerSays(customer, 'only for Ann');
    await agent1.waitFor('imMessage', 2);
    await sleep(150);
    expect(agent2.count('imMessage')).toBe(agent2Seen);
    expect(
      await customer.request('removeConversation', { type: 'cs', targetId: 'shop', teamId: 'shop' }),
    ).toMatchObject({
      code: 400,
      content: 'CS conversation can only be deleted after it ends',
    });

    const transfer = await agent1.request('CS_TRANSFER', { teamId: 'shop', customerId: 'cust', agentId: 'agent2' });
    expect(transfer.content.message).toMatchObject({ mt: 'CS_TRANSFER' });
    const transferPush = (await agent2.waitFor('imMessage', agent2Seen + 1)).at(-1);
    expect(JSON.parse(transferPush.p).transferTo).toEqual({ id: 'agent2', data: JSON.stringify({ name: 'Ben' }) });
    expect(
      (await customer.request('CS_CUSTOMER_STATUS', { teamId: 'shop', customerId: 'cust' })).content,
    ).toMatchObject({
      status: 'ACCEPTED',
      agent: { id: 'agent2' },
    });
    expect(await agent1.request('removeConversation', { type: 'cs', targetId: 'cust', teamId: 'shop' })).toMatchObject({
      code: 200,
    });

    const end = await agent2.request('CS_END', { teamId: 'shop', customerId: 'cust' });
    expect(end.content.message).toMatchObject({ mt: 'CS_END' });
    expect((await customer.request('CS_CUSTOMER_STATUS', { teamId: 'shop', customerId: 'cust' })).content).toEqual({
      status: 'FREE',
    });
    expect(
      await customer.request('removeConversation', { type: 'cs', targetId: 'shop', teamId: 'shop' }),
    ).toMatchObject({
      code: 200,
    });

    const again = await customerSays(customer, 'one more question');
    expect(Number(again.content.sessionId)).toBeGreaterThan(Number(sessionId));
    const history = await customer.request('IM_HISTORY', { id: 'shop', scene: 'cs', teamId: 'shop', limit: 30 });
    expect(history.content.messages.map((m: { mt: string }) => m.mt)).toEqual([
      'text',
      'CS_ACCEPT',
      'text',
      'CS_TRANSFER',
      'CS_END',
      'text',
    ]);
  });

  it('lets an agent watch a live session and go offline', async () => {
    const agent = await user('agent3');
    const agentPad = await user('agent3');
    await online(agent, 'Cat');
    const live = await agent.request('CS_LIVE_SESSION', { teamId: 'shop', customerId: 'cust2' });
    expect(live.content.customerStatus).toEqual({ status: 'FREE' });
    const customer = await user('cust2');
    await customerSays(customer, 'watched');
    const messages = await agent.waitFor('imMessage');
    expect(messages.at(-1)).toMatchObject({ s: 'cust2' });
    expect(await agent.request('CS_QUIT_LIVE', { teamId: 'shop', customerId: 'cust2' })).toMatchObject({ code: 200 });
    expect(await agent.request('CS_OFFLINE', { teamId: 'shop' })).toMatchObject({ code: 200 });
    const changes = await agentPad.waitFor('CS_ONLINE_CHANGED', 2);
    expect(changes[1]).toEqual({ teamId: 'shop', online: false });
    expect((await agent.request('CS_MY_TEAMS', {})).content).toEqual([]);
    expect((await agent.request('CS_PENDING_CONVERSATION', {})).content).toEqual([]);
  });

  it('answers CS validations with 400 and the exact message', async () => {
    const agent = await user('agent4');
    expect(await agent.request('CS_ONLINE', { teamId: 'shop', teamData: '{}', agentData: '"x"' })).toMatchObject({
      code: 400,
      content: 'agentData and teamData require an object',
    });
    await online(agent, 'Dan');
    expect(await agent.request('CS_ACCEPT', { teamId: 'shop' })).toMatchObject({
      code: 400,
      content: 'customer is required.',
    });
    expect(await agent.request('CS_ACCEPT', { teamId: 'shop', customer: { id: 'c', data: '{}' } })).toMatchObject({
      code: 400,
      content: 'customer data must be non-empty object.',
    });
    expect(await agent.request('CS_TRANSFER', { teamId: 'shop', customerId: 'c' })).toMatchObject({
      code: 400,
      content: ' agentId is required.',
    });
    const stranger = await user('stranger');
    expect(await stranger.request('IM_HISTORY', { id: 'cust', scene: 'cs', teamId: 'shop' })).toMatchObject({
      code: 401,
    });
  });
});
