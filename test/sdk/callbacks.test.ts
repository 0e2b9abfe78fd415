import { GoEasy } from '../../src/messaging';
import { settle } from '../../src/messaging/callbacks';
import { expectBadRequest, thrown } from './support/expect-error';

describe('callbacks and promises', () => {
  it('calls onSuccess and resolves with the same value', async () => {
    const onSuccess = jest.fn();
    const onFailed = jest.fn();
    await expect(settle({ onSuccess, onFailed }, async () => 42)).resolves.toBe(42);
    expect(onSuccess).toHaveBeenCalledWith(42);
    expect(onFailed).not.toHaveBeenCalled();
  });

  it('calls onFailed and rejects with {code, content}, whatever was thrown', async () => {
    const onFailed = jest.fn();
    await expect(
      settle({ onFailed }, () => Promise.reject({ resultCode: 401, content: 'No permission' })),
    ).rejects.toEqual({
      code: 401,
      content: 'No permission',
    });
    expect(onFailed).toHaveBeenCalledWith({ code: 401, content: 'No permission' });
    await expect(
      settle(undefined, () => {
        throw new Error('boom');
      }),
    ).rejects.toEqual({ code: 400, content: 'boom' });
  });
});

describe('GoEasy instance', () => {
  const options = { host: 'im.example.com', appkey: 'BC-key', modules: ['im'] };

  it('validates its options and hands out one shared instance', () => {
    expectBadRequest(() => new GoEasy({ ...options, host: '' }), "Invalid options:'host' is empty.");
    expect(GoEasy.getInstance(options)).toBe(GoEasy.getInstance({ ...options, appkey: 'other' }));
    expect(GoEasy.version).toBe('2.8.3');
    expect(GoEasy.IM_SCENE).toEqual({ PRIVATE: 'private', GROUP: 'group', SYSTEM: 'system', CS: 'cs' });
  });

  it('creating a message before connect() fails, through onFailed when given', () => {
    const client = new GoEasy(options);
    const create = { text: 'hi', to: { type: 'private' as const, id: 'u2', data: {} } };
    expect(thrown(() => client.im.createTextMessage(create))).toEqual({
      code: 400,
      content: 'Please call connect() first.',
    });
    const onFailed = jest.fn();
    client.im.createTextMessage({ ...create, onFailed });
    expect(onFailed).toHaveBeenCalledWith({ code: 400, content: 'Please call connect() first.' });
    expect(client.getConnectionStatus()).toBe('disconnected');
  });
});
