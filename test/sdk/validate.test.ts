import {
  type BatchMessage,
  normalizeNotification,
  validateAccept,
  validateBatch,
  validateConnectOptions,
  validateCsOnline,
  validateCustom,
  validateDelete,
  validateFile,
  validateGoEasyOptions,
  validateHistory,
  validateId,
  validateIdArray,
  validateMarkAsRead,
  validateNotification,
  validatePublish,
  validateRecall,
  validateSubscribe,
  validateSubscribePresence,
  validateText,
  validateTextPayload,
  validateTo,
  validateTop,
  validateTransfer,
  validateWxmpTemplateMsg,
} from '../../src/messaging/validate';
import { expectBadRequest } from './support/expect-error';

describe('connection options', () => {
  it('needs an object with appkey, host and supported modules', () => {
    expectBadRequest(() => validateGoEasyOptions('x'), 'options is require an object.');
    expectBadRequest(() => validateGoEasyOptions({ host: 'h', modules: ['im'] }), "Invalid options:'appkey' is empty.");
    expectBadRequest(
      () => validateGoEasyOptions({ appkey: 'k', host: '', modules: ['im'] }),
      "Invalid options:'host' is empty.",
    );
    expectBadRequest(
      () => validateGoEasyOptions({ appkey: 'k', host: 'h' }),
      "Invalid options: 'modules' must be nonempty array",
    );
    expectBadRequest(
      () => validateGoEasyOptions({ appkey: 'k', host: 'h', modules: ['im', 'rtc'] }),
      "Invalid options: module 'rtc' is not support",
    );
  });

  it('accepts module names in any case', () => {
    expect(validateGoEasyOptions({ appkey: 'k', host: 'h', modules: ['im', 'PubSub'] }).modules).toEqual([
      'IM',
      'PUBSUB',
    ]);
  });
});

describe('connect options', () => {
  it('with IM needs a string or number id and an object data', () => {
    expectBadRequest(() => validateConnectOptions({ data: {} }, true), 'TypeError: id requires number or string.');
    expectBadRequest(
      () => validateConnectOptions({ id: {}, data: {} }, true),
      'TypeError: id requires number or string.',
    );
    expectBadRequest(() => validateConnectOptions({ id: 'u1' }, true), 'TypeError: data requires object.');
    expect(() => validateConnectOptions({ id: 7, data: { name: 'Ann' } }, true)).not.toThrow();
  });

  it('without IM limits a string id to 60 characters and allows anonymous', () => {
    expectBadRequest(() => validateConnectOptions({ id: 'x'.repeat(61) }, false), 'id over max length 60');
    expect(() => validateConnectOptions({ id: 'x'.repeat(60) }, false)).not.toThrow();
    expect(() => validateConnectOptions({}, false)).not.toThrow();
    expectBadRequest(() => validateConnectOptions({ data: 'text' }, false), 'TypeError: data requires an object.');
    expectBadRequest(() => validateConnectOptions({ data: null }, false), 'TypeError: data requires an object.');
  });

  it('limits serialized user data to 300 bytes', () => {
    expect(() => validateConnectOptions({ id: 'u', data: { n: 'a'.repeat(292) } }, true)).not.toThrow();
    expectBadRequest(
      () => validateConnectOptions({ id: 'u', data: { n: 'a'.repeat(293) } }, true),
      'user.data-length limit 300 byte.',
    );
    expectBadRequest(
      () => validateConnectOptions({ id: 'u', data: { n: '眼'.repeat(98) } }, true),
      'user.data-length limit 300 byte.',
    );
  });

  it('checks wxmpId', () => {
    const base = { id: 'u', data: {} };
    expectBadRequest(
      () => validateConnectOptions({ ...base, wxmpId: 'wx' }, true),
      'TypeError: wxmpId requires an object.',
    );
    expectBadRequest(
      () => validateConnectOptions({ ...base, wxmpId: { openid: 'o' } }, true),
      'wxmpId.appid is required.',
    );
    expectBadRequest(
      () => validateConnectOptions({ ...base, wxmpId: { appid: 'a' } }, true),
      'wxmpId.openid is required. requires string.',
    );
    expect(() => validateConnectOptions({ ...base, wxmpId: { appid: 'a', openid: 'o' } }, true)).not.toThrow();
  });
});

describe('ids and id arrays', () => {
  it('requires a string or number id', () => {
    expectBadRequest(() => validateId('', 'userId'), ' userId is required.');
    expectBadRequest(() => validateId(undefined, 'groupId'), ' groupId is required.');
    expectBadRequest(() => validateId(true, 'userId'), 'TypeError: userId require string or number.');
    expect(validateId(12, 'userId')).toBe('12');
  });

  it('checks arrays: non-empty, at most 300, no empty or duplicate items', () => {
    expectBadRequest(() => validateIdArray([], 'userIds'), 'TypeError: userIds require array.');
    expectBadRequest(() => validateIdArray('a', 'userIds'), 'TypeError: userIds require array.');
    const many = Array.from({ length: 301 }, (_, i) => `u${i}`);
    expectBadRequest(() => validateIdArray(many, 'userIds'), 'userIds is over max length 500.');
    expect(validateIdArray(many.slice(0, 300), 'userIds')).toHaveLength(300);
    expectBadRequest(() => validateIdArray(['a', {}], 'userIds'), 'TypeError: userIds item require string or number.');
    expectBadRequest(() => validateIdArray(['a', ''], 'groupIds'), 'groupIds has empty item.');
    expectBadRequest(() => validateIdArray(['a', 1, '1'], 'groupIds'), 'Duplicate element in groupIds');
  });
});

describe('subscribe', () => {
  const onMessage = () => undefined;
  it('takes channel or channels, not both', () => {
    expectBadRequest(() => validateSubscribe({ onMessage }, false), 'channel is required.');
    expectBadRequest(
      () => validateSubscribe({ channel: 'a', channels: ['b'], onMessage }, false),
      'subscribe to either channel or channels, not both.',
    );
    expect(validateSubscribe({ channels: ['a', 'b'], onMessage }, false).channels).toEqual(['a', 'b']);
  });

  it('checks presence', () => {
    expectBadRequest(
      () => validateSubscribe({ channel: 'a', presence: { enable: 'yes' }, onMessage }, false),
      'Subscription failed. presence.enable must be a boolean',
    );
    expectBadRequest(
      () => validateSubscribe({ channel: 'a', presence: { enable: true }, onMessage }, true),
      'Subscription failed. If presence is enable, the id must be specified when calling the connect method',
    );
    expect(validateSubscribe({ channel: 'a', presence: { enable: true }, onMessage }, false).presence).toBe(true);
    expectBadRequest(
      () => validateSubscribePresence({ channel: 'a' }, false),
      'Subscription Presence failed. onPresence callback function is required',
    );
  });
});

describe('publish', () => {
  it('checks the message and qos', () => {
    expectBadRequest(() => validatePublish({ message: 'hi' }), ' channel is required.');
    expectBadRequest(() => validatePublish({ channel: 'c' }), 'message is required.');
    expectBadRequest(() => validatePublish({ channel: 'c', message: 5 }), 'TypeError: message requires string.');
    expectBadRequest(
      () => validatePublish({ channel: 'c', message: 'x'.repeat(10001) }),
      'Message over max length 10000.',
    );
    expect(() => validatePublish({ channel: 'c', message: 'x'.repeat(10000) })).not.toThrow();
    expectBadRequest(() => validatePublish({ channel: 'c', message: 'm', qos: 2 }), 'Qos must be 0 or 1.');
  });
});

describe('notification', () => {
  it('checks title, body, sound, badge and vendor options', () => {
    expectBadRequest(() => validateNotification('n'), 'TypeError: notification requires an object.');
    expectBadRequest(
      () => validateNotification({ title: 't'.repeat(33), body: 'b' }),
      'notification.title must be a string of no more than 32 characters',
    );
    expectBadRequest(
      () => validateNotification({ title: 't', body: 'b'.repeat(51) }),
      'notification.body must be a string of no more than 50 characters',
    );
    expectBadRequest(
      () => validateNotification({ title: 't', body: 'b', sound: 1 }),
      'notification.sound must be a string',
    );
    expectBadRequest(
      () => validateNotification({ title: 't', body: 'b', badge: 1 }),
      'notification.badge must be a string',
    );
    const vendor = (vendorOptions: object) => () => validateNotification({ title: 't', body: 'b', vendorOptions });
    expectBadRequest(
      vendor({ huawei: { category: 1 } }),
      'notification.vendorOptions.huawei.category require a string',
    );
    expectBadRequest(
      vendor({ xiaomi: { channel_id: 1 } }),
      'notification.vendorOptions.xiaomi.channel_id require a string',
    );
    expectBadRequest(
      vendor({ oppo: { channel_id: 1 } }),
      'notification.vendorOptions.oppo.channel_id require a string',
    );
    expectBadRequest(
      vendor({ vivo: { classification: '1' } }),
      'notification.vendorOptions.vivo.classification require a number',
    );
    expectBadRequest(vendor({ vivo: { category: 2 } }), 'notification.vendorOptions.vivo.category require a string');
    expect(vendor({ vivo: { classification: 1, category: 'IM' } })).not.toThrow();
  });

  it('defaults the badge to "0"', () => {
    expect(normalizeNotification({ title: 't', body: 'b' }).badge).toBe('0');
    expect(normalizeNotification({ title: 't', body: 'b', badge: '3' }).badge).toBe('3');
  });
});

describe('template message', () => {
  it('checks every field', () => {
    expectBadRequest(() => validateWxmpTemplateMsg('t'), 'wxmpTemplateMsg must be an object.');
    expectBadRequest(() => validateWxmpTemplateMsg({ data: {} }), 'template_id must be string.');
    expectBadRequest(() => validateWxmpTemplateMsg({ template_id: 't', url: 3, data: {} }), 'url must be string');
    expectBadRequest(
      () => validateWxmpTemplateMsg({ template_id: 't', miniprogram: { appid: 'a' }, data: {} }),
      'miniprogram.appid and miniprogram.pagepath must be strings.',
    );
    expectBadRequest(() => validateWxmpTemplateMsg({ template_id: 't' }), 'data requires an object.');
    expect(() =>
      validateWxmpTemplateMsg({ template_id: 't', url: 'u', miniprogram: { appid: 'a', pagepath: 'p' }, data: {} }),
    ).not.toThrow();
  });
});

describe('text and custom messages', () => {
  it('checks text', () => {
    expectBadRequest(() => validateText(''), 'text is empty');
    expectBadRequest(() => validateText('   '), 'text is empty');
    expectBadRequest(() => validateText(5), 'TypeError: text requires string.');
    expectBadRequest(() => validateText('x'.repeat(2501)), 'Message text over max length 2500');
    expect(validateText('x'.repeat(2500))).toHaveLength(2500);
  });

  it('limits the serialized payload to 3072', () => {
    expectBadRequest(() => validateTextPayload({ text: '"'.repeat(1600) }), 'message-length limit 3kb');
    expect(() => validateTextPayload({ text: 'a'.repeat(2500) })).not.toThrow();
  });

  it('checks custom type and payload', () => {
    expectBadRequest(() => validateCustom('', { a: 1 }), 'type is empty.');
    expectBadRequest(() => validateCustom(3, { a: 1 }), 'type require a string');
    expectBadRequest(() => validateCustom('order', undefined), 'payload is empty.');
    expectBadRequest(() => validateCustom('order', {}), 'payload is empty.');
    expectBadRequest(() => validateCustom('order', true), 'payload require object | string | number.');
    expect(() => validateCustom('order', 42)).not.toThrow();
  });
});

describe('files', () => {
  const file = (name: string, size: number, type = '') => ({ path: `wxfile://tmp/${name}`, name, size, type });
  it('checks presence, shape and size', () => {
    expectBadRequest(() => validateFile(undefined, 'file'), 'file is empty.');
    expectBadRequest(() => validateFile('a.png', 'file'), 'wrong file type.');
    expectBadRequest(() => validateFile({ size: 3 }, 'file'), 'wrong file type.');
    expectBadRequest(() => validateFile(file('a.txt', 0), 'file'), 'File size is 0.');
    expectBadRequest(() => validateFile(file('a.txt', 524288001), 'file'), 'message-length limit 30mib');
    expect(validateFile(file('a.txt', 524288000), 'file').size).toBe(524288000);
    expectBadRequest(() => validateFile(file('a.mp4', 31457281), 'video'), 'message-length limit 30mib');
  });

  it('checks image, audio and video types by mime type or extension', () => {
    expectBadRequest(() => validateFile(file('a.bmp', 10), 'image'), 'Only gif,jpg,png,jpeg is supported image.');
    expect(validateFile(file('photo', 10, 'image/JPEG'), 'image').size).toBe(10);
    expectBadRequest(
      () => validateFile(file('a.flac', 10), 'audio'),
      'Only mp3,ogg,wav,wma,ape,acc,mpeg is supported audio.',
    );
    expect(validateFile(file('a.mp3', 10), 'audio').size).toBe(10);
    expectBadRequest(
      () => validateFile(file('a.mkv', 10), 'video'),
      'Only avi,mov,rmvb,rm,flv,mp4,3gp,quicktime is supported video.',
    );
    expect(validateFile(file('clip', 10, 'video/quicktime'), 'video').size).toBe(10);
  });

  it('accepts browser files', () => {
    const blob = new File(['abc'], 'a.png', { type: 'image/png' });
    expect(validateFile(blob, 'image')).toBe(blob);
  });
});

describe('message target', () => {
  it('checks to', () => {
    expectBadRequest(() => validateTo(undefined, 'me'), 'message require property to.');
    expectBadRequest(() => validateTo('u2', 'me'), 'TypeError: to requires an object.');
    expectBadRequest(() => validateTo({ type: 'private', id: 'u2' }, 'me'), 'TypeError: to.data requires an object.');
    expectBadRequest(
      () => validateTo({ type: 'system', id: 'u2', data: {} }, 'me'),
      'message require property to.type',
    );
    expectBadRequest(() => validateTo({ type: 'private', data: {} }, 'me'), 'message require property to.id');
    expectBadRequest(
      () => validateTo({ type: 'private', id: [1], data: {} }, 'me'),
      'to.id should be a string or number.',
    );
    expectBadRequest(
      () => validateTo({ type: 'private', id: 'me', data: {} }, 'me'),
      'to.id can not be the same as your id.',
    );
    expect(validateTo({ type: 'group', id: 9, data: {} }, 'me')).toEqual({ type: 'group', id: '9', data: {} });
  });
});

describe('delete and recall', () => {
  const message = (over: Partial<BatchMessage> = {}): BatchMessage => ({
    messageId: 'm1',
    senderId: 'me',
    status: 'success',
    recalled: false,
    conversationKey: 'private#u2',
    scene: 'private',
    ...over,
  });
  const asIs = (item: unknown) => (typeof item === 'object' ? (item as BatchMessage) : null);

  it('checks the batch', () => {
    expectBadRequest(() => validateBatch([], asIs), 'messages requires non empty array');
    expectBadRequest(
      () =>
        validateBatch(
          Array.from({ length: 21 }, () => message()),
          asIs,
        ),
      'The maximum number of messages is 20',
    );
    expect(
      validateBatch(
        Array.from({ length: 20 }, () => message()),
        asIs,
      ),
    ).toHaveLength(20);
    expectBadRequest(() => validateBatch([message(), 'x'], asIs), 'message[1] is not a correct message');
    expectBadRequest(
      () => validateBatch([message(), message({ conversationKey: 'private#u3' })], asIs),
      'each message must be from the same friend or group',
    );
  });

  it('refuses deleting CS or sending messages', () => {
    expectBadRequest(() => validateDelete([message({ scene: 'cs' })]), 'Delete CS message is not supported yet');
    expectBadRequest(
      () => validateDelete([message(), message({ status: 'sending' })]),
      "message[1] is 'sending' and cannot be deleted",
    );
    expect(() => validateDelete([message({ status: 'fail', senderId: 'u2' })])).not.toThrow();
  });

  it("refuses recalling CS, unsent, recalled and others' messages", () => {
    expectBadRequest(() => validateRecall([message({ scene: 'cs' })], 'me'), 'Recall CS message is not supported yet.');
    expectBadRequest(
      () => validateRecall([message({ status: 'fail' })], 'me'),
      "message[0] is 'fail' and cannot be recalled",
    );
    expectBadRequest(
      () => validateRecall([message(), message({ recalled: true })], 'me'),
      'message[1] has been recalled',
    );
    expectBadRequest(
      () => validateRecall([message({ senderId: 'u2' })], 'me'),
      'it is not allowed to recall messages sent by others',
    );
    expect(() => validateRecall([message()], 'me')).not.toThrow();
  });
});

describe('history and mark as read', () => {
  it('needs a conversation and caps the limit', () => {
    expectBadRequest(() => validateHistory({}), 'incorrect query options.');
    expectBadRequest(
      () => validateHistory({ type: 'room', id: 'x' }),
      'incorrect type, must be: private,group,system,cs',
    );
    expectBadRequest(() => validateHistory({ type: 'group' }), 'If type is not empty, id is required.');
    expect(validateHistory({ userId: 'u2' })).toEqual({
      scene: 'private',
      id: 'u2',
      limit: 10,
      lastTimestamp: undefined,
    });
    expect(validateHistory({ groupId: 'g', limit: 100, lastTimestamp: 5 })).toEqual({
      scene: 'group',
      id: 'g',
      limit: 30,
      lastTimestamp: 5,
    });
    expect(validateHistory({ type: 'cs', id: 't', limit: 20 }).limit).toBe(20);
  });

  it('mark as read needs userId, groupId, or id plus type', () => {
    expectBadRequest(() => validateMarkAsRead({ userId: '' }), 'userId could not be empty.');
    expectBadRequest(() => validateMarkAsRead({ groupId: undefined }), 'groupId could not be empty.');
    expectBadRequest(() => validateMarkAsRead({ type: 'private' }), 'id could not be empty.');
    expectBadRequest(
      () => validateMarkAsRead({ id: 'x', type: 'room' }),
      'incorrect type, must be: private,group,system,cs',
    );
    expect(validateMarkAsRead({ id: 'g', type: 'group' })).toEqual({ scene: 'group', id: 'g' });
  });
});

describe('top and customer service', () => {
  it('top needs a boolean', () => {
    expectBadRequest(() => validateTop('yes'), 'top must be boolean.');
    expect(validateTop(false)).toBe(false);
  });

  it('online needs agentData and teamData objects', () => {
    expectBadRequest(() => validateCsOnline({ agentData: {} }), 'agentData and teamData require an object');
    expect(() => validateCsOnline({ agentData: {}, teamData: {} })).not.toThrow();
  });

  it('accept needs a customer with an id and data', () => {
    expectBadRequest(() => validateAccept({}), 'customer is required.');
    expectBadRequest(() => validateAccept({ customer: { data: { n: 1 } } }), ' customer.id is required.');
    expectBadRequest(
      () => validateAccept({ customer: { id: 'c', data: {} } }),
      'customer data must be non-empty object.',
    );
    expect(validateAccept({ customer: { id: 5, data: { name: 'C' } } })).toEqual({ id: '5', data: { name: 'C' } });
  });

  it('transfer needs customerId and agentId', () => {
    expectBadRequest(() => validateTransfer({ agentId: 'a' }), ' customerId is required.');
    expectBadRequest(() => validateTransfer({ customerId: 'c' }), ' agentId is required.');
    expect(validateTransfer({ customerId: 'c', agentId: 2 })).toEqual({ customerId: 'c', agentId: '2' });
  });
});
