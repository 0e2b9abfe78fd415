import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { type AnyMessage, GoEasy } from '../../../src/messaging';
import { isMessagingError } from '../../../src/messaging/errors';
import * as v from '../../../src/messaging/validate';
import { APPKEY, type TestServer, connectUser, startServer } from '../../sdk/support/harness';
import { recordReliability } from '../../support/reliability';
import { CLIENT_TEMPLATES, GOEASY_CLIENT, catalogue, templatePattern } from './catalogue';

/**
 * Every SDK validator and every public entry point that validates, given random and adversarial input, answers
 * success or a `{code: 400, content}` whose content is a message of messaging.md §5/§8 (or the GoEasy 2.8.3 client's
 * wording of a §5 rule): never a throw of another kind. Seeded; raise LENSMATE_FUZZ_RUNS for a longer run.
 */
const RUNS = Number(process.env.LENSMATE_FUZZ_RUNS || 3);
const SEED = Number(process.env.LENSMATE_FUZZ_SEED || 20261122);
const CATALOGUE = catalogue();

/** The option names the validators read, so random objects reach past the first check. */
const FIELDS = [
  'appkey',
  'host',
  'modules',
  'id',
  'data',
  'wxmpId',
  'appid',
  'openid',
  'otp',
  'channel',
  'channels',
  'presence',
  'enable',
  'onPresence',
  'message',
  'qos',
  'notification',
  'title',
  'body',
  'sound',
  'badge',
  'vendorOptions',
  'huawei',
  'xiaomi',
  'oppo',
  'vivo',
  'category',
  'channel_id',
  'classification',
  'wxmpTemplateMsg',
  'template_id',
  'url',
  'miniprogram',
  'pagepath',
  'text',
  'to',
  'type',
  'payload',
  'file',
  'name',
  'size',
  'path',
  'tempFilePath',
  'userId',
  'groupId',
  'userIds',
  'groupIds',
  'limit',
  'lastTimestamp',
  'top',
  'messages',
  'agentData',
  'teamData',
  'customer',
  'customerId',
  'agentId',
];
const POLLUTION = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf'];
const WORDS = ['', ' ', '\t\n', 'im', 'IM', 'pubsub', 'rtc', 'private', 'group', 'cs', 'system', 'sending', 'success'];
const WORDS2 = ['jpg', 'png', 'mp4', 'image/png', 'video/mp4', 'a.mp3', 'fuzz-me', 'fuzz-other', '\u0000', '\ud800'];

const nullProto = <T extends object>(object: T): T => Object.assign(Object.create(null), object);
function cyclic(): Record<string, unknown> {
  const object: Record<string, unknown> = { name: 'loop' };
  object.self = object;
  return object;
}

const number = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -0, 1, -1, 2, 20, 21, 30, 31, 300, 301, 31457281, 524288001, Number.MAX_SAFE_INTEGER + 2),
);
const text = fc.oneof(
  fc.string(),
  fc.fullUnicodeString({ maxLength: 20 }),
  fc.constantFrom(...WORDS, ...WORDS2),
  // Around the limits: 32/50 (notification), 60 (id), 300 (data), 2500/3072 (text), 10000 (publish).
  fc
    .constantFrom(31, 33, 49, 51, 59, 61, 299, 301, 2499, 2501, 3073, 9999, 10001)
    .chain((length) => fc.constantFrom('x', '字', '😀', ' ').map((unit) => unit.repeat(length))),
);
const exotic = fc.oneof(
  fc.bigInt(),
  fc.string({ maxLength: 4 }).map((description) => Symbol(description)),
  fc.constant(() => undefined),
  fc.constant(null).map(() => cyclic()),
  fc.date(),
  fc.constant(null).map(() => new Blob(['fuzz'], { type: 'image/png' })),
  fc.constant(null).map(() => new Blob([])),
);
const leaf = fc.oneof(
  {
    arbitrary: fc.constantFrom(
      undefined,
      null,
      true,
      false,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
    ),
    weight: 2,
  },
  { arbitrary: number, weight: 2 },
  { arbitrary: text, weight: 3 },
  { arbitrary: exotic, weight: 1 },
);
const key = fc.oneof(
  { arbitrary: fc.constantFrom(...FIELDS), weight: 6 },
  { arbitrary: fc.constantFrom(...POLLUTION), weight: 1 },
  { arbitrary: fc.string({ maxLength: 6 }), weight: 1 },
);
const anything: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(key, tie('value'), { maxKeys: 5 }),
    fc.dictionary(key, tie('value'), { maxKeys: 5 }).map(nullProto),
  ),
})).value;
/** Mostly an options object (sometimes without a prototype), now and then anything at all. */
const options = fc.oneof(
  { arbitrary: fc.dictionary(fc.constantFrom(...FIELDS), anything, { maxKeys: 6 }), weight: 6 },
  { arbitrary: fc.dictionary(fc.constantFrom(...FIELDS), anything, { maxKeys: 6 }).map(nullProto), weight: 1 },
  { arbitrary: anything, weight: 2 },
);

const describeInput = (input: unknown) => fc.stringify(input).slice(0, 400);
const figures = { calls: 0, refused: 0 };

/** A refusal must be exactly `{code: 400, content}` with a catalogue message. */
function checkRefusal(where: string, error: unknown, codes: number[] = [400]): void {
  if (!isMessagingError(error)) {
    throw new Error(`${where}: threw ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
  }
  if (!codes.includes(error.code)) throw new Error(`${where}: code ${error.code} (${error.content})`);
  if (error.code === 400 && !CATALOGUE.accepts(error.content)) {
    throw new Error(`${where}: "${error.content}" is not a message of messaging.md §5/§8`);
  }
  figures.refused++;
}

function syncOutcome(where: string, call: () => unknown): void {
  figures.calls++;
  try {
    call();
  } catch (error) {
    checkRefusal(where, error);
  }
}

/** A promise-returning entry point: never a synchronous throw; a rejection is a MessagingError. */
async function asyncOutcome(where: string, call: () => unknown, codes: number[]): Promise<void> {
  figures.calls++;
  let result: unknown;
  try {
    result = call();
  } catch (error) {
    throw new Error(`${where}: threw synchronously: ${String((error as { content?: unknown }).content ?? error)}`);
  }
  if (!(result instanceof Promise)) throw new Error(`${where}: did not return a promise`);
  await result.then(
    () => undefined,
    (error: unknown) => checkRefusal(where, error, codes),
  );
}

function fuzzSync(name: string, input: fc.Arbitrary<unknown[]>, call: (...args: any[]) => unknown, runs: number) {
  fc.assert(
    fc.property(input, (args) => syncOutcome(`${name}(${describeInput(args)})`, () => call(...args))),
    { seed: SEED, numRuns: runs },
  );
}

afterAll(() => {
  console.log(`SDK fuzz: seed ${SEED}, calls ${figures.calls}, refused with a catalogue message ${figures.refused}`);
  recordReliability({ suite: 'fuzz-sdk', payloads: figures.calls, refused: figures.refused });
});

describe('the error catalogue the fuzzing checks against', () => {
  it('is read from messaging.md §5 and §8', () => {
    expect(CATALOGUE.spec).toEqual(
      expect.arrayContaining(['Message text over max length 2500', ' X is required.', 'Please call connect() first.']),
    );
    expect(CATALOGUE.spec.length).toBeGreaterThan(30);
    expect(CATALOGUE.accepts('TypeError: boom')).toBe(false);
  });

  it("keeps the GoEasy 2.8.3 client's wording, letter for letter, where the spec quotes none", () => {
    const client = readFileSync(GOEASY_CLIENT, 'utf8');
    const missing = CLIENT_TEMPLATES.flatMap((template) =>
      template
        .split('{}')
        .map((part) => part.trim())
        .filter((part) => part.length > 3 && !client.includes(part))
        .map((part) => `${template}: "${part}"`),
    );
    expect(missing).toEqual([]);
    expect(
      templatePattern("Invalid options: module '{}' is not support").test("Invalid options: module 'x' is not support"),
    ).toBe(true);
  });
});

describe('SDK validators: success or a §8 message, never another throw', () => {
  const runs = RUNS * 100;
  const bool = fc.boolean();
  const kind = fc.constantFrom<v.FileKind>('file', 'image', 'audio', 'video');
  const myId = fc.option(fc.constantFrom('fuzz-me', '1', ''), { nil: null });
  const batchMessage = fc.record({
    messageId: fc.string(),
    senderId: fc.constantFrom('fuzz-me', 'fuzz-other', ''),
    status: fc.constantFrom('new', 'sending', 'success', 'fail'),
    recalled: fc.boolean(),
    conversationKey: fc.constantFrom('private:a', 'private:b'),
    scene: fc.constantFrom('private', 'group', 'cs', 'system'),
  });
  const toBatch = (item: unknown) =>
    v.isPlainObject(item) && typeof item.messageId === 'string' ? (item as unknown as v.BatchMessage) : null;

  const cases: [string, fc.Arbitrary<unknown[]>, (...args: any[]) => unknown][] = [
    ['validateGoEasyOptions', fc.tuple(options), v.validateGoEasyOptions],
    ['validateConnectOptions', fc.tuple(options, bool), v.validateConnectOptions],
    ['validateId', fc.tuple(anything, fc.constantFrom('userId', 'channel')), v.validateId],
    [
      'validateIdArray',
      fc.tuple(fc.oneof(fc.array(leaf, { maxLength: 8 }), anything), fc.constant('ids')),
      v.validateIdArray,
    ],
    [
      'validateIdArray (long)',
      fc.tuple(
        fc.integer({ min: 299, max: 302 }).map((n) => Array.from({ length: n }, (_, i) => i)),
        fc.constant('userIds'),
      ),
      v.validateIdArray,
    ],
    ['validateChannelOrChannels', fc.tuple(anything, anything), v.validateChannelOrChannels],
    ['validateCallbackOptions', fc.tuple(options), v.validateCallbackOptions],
    ['validateSubscribe', fc.tuple(options, bool), v.validateSubscribe],
    ['validateSubscribePresence', fc.tuple(options, bool), v.validateSubscribePresence],
    ['validateNotification', fc.tuple(options), v.validateNotification],
    ['validateWxmpTemplateMsg', fc.tuple(options), v.validateWxmpTemplateMsg],
    ['validatePublish', fc.tuple(options), v.validatePublish],
    ['validateCreateOptions', fc.tuple(options), v.validateCreateOptions],
    ['validateText', fc.tuple(fc.oneof(text, anything)), v.validateText],
    ['validateTextPayload', fc.tuple(anything), v.validateTextPayload],
    ['validateFile', fc.tuple(options, kind), v.validateFile],
    ['validateCustom', fc.tuple(anything, anything), v.validateCustom],
    ['validateTo', fc.tuple(options, myId), v.validateTo],
    [
      'validateBatch',
      fc.tuple(fc.oneof(fc.array(fc.oneof(batchMessage, anything), { maxLength: 22 }), anything)),
      (messages: unknown) => v.validateBatch(messages, toBatch),
    ],
    ['validateDelete', fc.tuple(fc.array(batchMessage, { maxLength: 4 })), v.validateDelete],
    ['validateRecall', fc.tuple(fc.array(batchMessage, { maxLength: 4 }), myId), v.validateRecall],
    ['validateHistory', fc.tuple(options), v.validateHistory],
    ['validateMarkAsRead', fc.tuple(options), v.validateMarkAsRead],
    ['validateTop', fc.tuple(anything), v.validateTop],
    ['validateCsOnline', fc.tuple(options), v.validateCsOnline],
    ['validateAccept', fc.tuple(options), v.validateAccept],
    ['validateTransfer', fc.tuple(options), v.validateTransfer],
  ];

  it.each(cases)('%s', (name, input, call) => fuzzSync(name, input, call, runs));

  it('the GoEasy constructor', () => fuzzSync('new GoEasy', fc.tuple(options), (given) => new GoEasy(given), runs));
});

describe('what the fuzzer found (kept as fixed cases)', () => {
  it('connect data that has no JSON (a cycle, a BigInt) is refused as not an object, not a TypeError', () => {
    for (const data of [cyclic(), { n: 1n }]) {
      expect(() => v.validateConnectOptions({ id: 'u', data }, true)).toThrow(
        expect.objectContaining({ code: 400, content: 'TypeError: data requires an object.' }),
      );
    }
  });

  it('a history limit or timestamp that has no number falls back to the defaults, not a TypeError', () => {
    for (const odd of [Object.create(null), [Object.create(null)], Symbol('x')]) {
      expect(v.validateHistory({ userId: 'u', limit: odd, lastTimestamp: odd })).toEqual({
        scene: 'private',
        id: 'u',
        limit: 10,
        lastTimestamp: undefined,
      });
    }
  });

  it('a module name that cannot become a string is "not support", not a TypeError', () => {
    expect(() => v.validateGoEasyOptions({ appkey: 'k', host: 'h', modules: [Object.create(null)] })).toThrow(
      expect.objectContaining({ code: 400, content: "Invalid options: module '[object Object]' is not support" }),
    );
  });

  it('a text payload that has no JSON is "it is invalid message"', () => {
    expect(() => v.validateTextPayload({ text: 1n })).toThrow(
      expect.objectContaining({ code: 400, content: 'it is invalid message' }),
    );
  });
});

describe('public API entry points: success, a server answer or a §8 message, never another throw', () => {
  let server: TestServer;
  let client: GoEasy;
  let other: GoEasy;
  let offline: GoEasy;
  const sent: AnyMessage[] = [];
  /** Answers a real server may give besides the local 400s: no permission, timeouts, not connected, upload. */
  const SERVER_CODES = [400, 401, 403, 404, 408, 409, 500];

  beforeAll(async () => {
    server = await startServer();
    client = await connectUser(server, 'fuzz-me');
    other = await connectUser(server, 'fuzz-other');
    offline = new GoEasy({ host: server.url, appkey: APPKEY, modules: ['im', 'pubsub'] });
    const to = { type: 'private' as const, id: 'fuzz-other', data: { name: 'Other' } };
    for (const text of ['one', 'two']) {
      const message = client.im.createTextMessage({ text, to });
      await client.im.sendMessage({ message });
      sent.push(message);
    }
  }, 60_000);

  afterAll(async () => {
    await client?.disconnect();
    await other?.disconnect();
    await server?.stop();
  });

  /** Real messages now and then, so recall and delete reach past "is not a correct message". */
  const messages = fc.oneof(
    fc.constant(null).map(() => ({ messages: [sent[0]] })),
    fc.constant(null).map(() => ({ messages: [...sent] })),
    options,
  );

  type Call = [string, (client: GoEasy, input: any) => unknown];
  const promiseCalls: Call[] = [
    ['pubsub.subscribe', (c, o) => c.pubsub.subscribe(o)],
    ['pubsub.unsubscribe', (c, o) => c.pubsub.unsubscribe(o)],
    ['pubsub.publish', (c, o) => c.pubsub.publish(o)],
    ['pubsub.history', (c, o) => c.pubsub.history(o)],
    ['pubsub.subscribePresence', (c, o) => c.pubsub.subscribePresence(o)],
    ['pubsub.unsubscribePresence', (c, o) => c.pubsub.unsubscribePresence(o)],
    ['pubsub.hereNow', (c, o) => c.pubsub.hereNow(o)],
    ['im.sendMessage', (c, o) => c.im.sendMessage(o)],
    ['im.history', (c, o) => c.im.history(o)],
    ['im.markMessageAsRead', (c, o) => c.im.markMessageAsRead(o)],
    ['im.markPrivateMessageAsRead', (c, o) => c.im.markPrivateMessageAsRead(o)],
    ['im.markGroupMessageAsRead', (c, o) => c.im.markGroupMessageAsRead(o)],
    ['im.recallMessage', (c, o) => c.im.recallMessage(o)],
    ['im.deleteMessage', (c, o) => c.im.deleteMessage(o)],
    ['im.topConversation', (c, o) => c.im.topConversation(o)],
    ['im.removeConversation', (c, o) => c.im.removeConversation(o)],
    ['im.subscribeUserPresence', (c, o) => c.im.subscribeUserPresence(o)],
    ['im.unsubscribeUserPresence', (c, o) => c.im.unsubscribeUserPresence(o)],
    ['im.hereNow', (c, o) => c.im.hereNow(o)],
    ['im.subscribeGroupPresence', (c, o) => c.im.subscribeGroupPresence(o)],
    ['im.unsubscribeGroupPresence', (c, o) => c.im.unsubscribeGroupPresence(o)],
    ['im.subscribeGroup', (c, o) => c.im.subscribeGroup(o)],
    ['im.unsubscribeGroup', (c, o) => c.im.unsubscribeGroup(o)],
    ['im.groupHereNow', (c, o) => c.im.groupHereNow(o)],
    ['im.groupOnlineCount', (c, o) => c.im.groupOnlineCount(o)],
    ['csteam.online', (c, o) => c.im.csteam('fuzz-team').online(o)],
    ['csteam.accept', (c, o) => c.im.csteam('fuzz-team').accept(o)],
    ['csteam.transfer', (c, o) => c.im.csteam('fuzz-team').transfer(o)],
    ['csteam.end', (c, o) => c.im.csteam('fuzz-team').end(o)],
  ];
  const createCalls: Call[] = [
    ['im.createTextMessage', (c, o) => c.im.createTextMessage(o)],
    ['im.createImageMessage', (c, o) => c.im.createImageMessage(o)],
    ['im.createFileMessage', (c, o) => c.im.createFileMessage(o)],
    ['im.createAudioMessage', (c, o) => c.im.createAudioMessage(o)],
    ['im.createVideoMessage', (c, o) => c.im.createVideoMessage(o)],
    ['im.createCustomMessage', (c, o) => c.im.createCustomMessage(o)],
    ['im.csteam', (c, o) => c.im.csteam(o)],
  ];

  it.each(promiseCalls)(
    '%s on a connected client',
    async (name, call) => {
      const input = /recall|delete/i.test(name) ? messages : options;
      await fc.assert(
        fc.asyncProperty(input, (given) =>
          asyncOutcome(`${name}(${describeInput(given)})`, () => call(client, given), SERVER_CODES),
        ),
        { seed: SEED, numRuns: RUNS * 10 },
      );
    },
    120_000,
  );

  it('found by the fuzzer: mark-as-read shortcuts without options answer "bad parameters", not a TypeError', async () => {
    for (const mark of [client.im.markPrivateMessageAsRead, client.im.markGroupMessageAsRead]) {
      await expect(mark.call(client.im, undefined as never)).rejects.toEqual({ code: 400, content: 'bad parameters' });
    }
  });

  it.each(createCalls)('%s on a connected client', (name, call) => {
    fuzzSync(name, fc.tuple(options), (given) => call(client, given), RUNS * 30);
  });

  it('every entry point of a client that never connected answers a §5 message or "Please connect first"', async () => {
    for (const [name, call] of [...promiseCalls, ...createCalls]) {
      await fc.assert(
        fc.asyncProperty(options, async (given) => {
          const where = `offline ${name}(${describeInput(given)})`;
          if (createCalls.some(([create]) => create === name)) return syncOutcome(where, () => call(offline, given));
          // 400 "Please call connect() first." (or a §5 check), 409 "Please connect first" past the checks.
          return asyncOutcome(where, () => call(offline, given), [400, 409]);
        }),
        { seed: SEED, numRuns: RUNS * 3 },
      );
    }
  }, 120_000);

  it('connect() with random options: refused locally with a §5 message, or connected to the real server', async () => {
    await fc.assert(
      fc.asyncProperty(options, async (given) => {
        const fresh = new GoEasy({ host: server.url, appkey: APPKEY, modules: ['im', 'pubsub'] });
        try {
          await asyncOutcome(`connect(${describeInput(given)})`, () => fresh.connect(given as never), SERVER_CODES);
        } finally {
          await fresh.disconnect().catch(() => undefined);
        }
      }),
      { seed: SEED, numRuns: RUNS * 10 },
    );
  }, 120_000);
});
