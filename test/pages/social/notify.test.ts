import {
  NOTIFICATION_BODY_MAX,
  NOTIFICATION_TITLE_MAX,
  notificationFor,
  notificationTarget,
  templateMessageFor,
} from '@/features/chat/notify';
import { GroupMessage, PrivateMessage } from '@/messaging';

describe('chat notifications', () => {
  it('titles a group notification with the group and prefixes the body with the sender', () => {
    expect(notificationFor('group', 'See you Saturday', 'Lensmate friends', 'Ada')).toEqual({
      title: 'Lensmate friends',
      body: 'Ada: See you Saturday',
    });
    expect(notificationFor('private', '[Image]', 'Ignored', 'Ben')).toEqual({ title: 'Ben', body: '[Image]' });
    expect(notificationFor('private', '   ', '', '')).toEqual({ title: 'New message', body: 'New message' });
  });

  it('gives WeChat a template into the conversation as the receiver sees it: the group, or the chat with the sender', () => {
    const template = { templateId: 'TPL', appid: 'wx0123456789abcdef' };
    expect(
      templateMessageFor(template, 'group', { id: '7', me: '2' }, 'See you Saturday', 'Lensmate friends', 'Ada'),
    ).toEqual({
      template_id: 'TPL',
      miniprogram: { appid: 'wx0123456789abcdef', pagepath: '/pages/groupChat/groupChat?to=7' },
      data: { thing1: { value: 'Lensmate friends' }, thing2: { value: 'Ada: See you Saturd…' } },
    });
    const direct = templateMessageFor(template, 'private', { id: '3', me: '2' }, 'Hi', 'Ben', 'Ada');
    expect(direct.miniprogram.pagepath).toBe('/pages/message/privateChat/privateChat?to=2');
    expect(direct.data).toEqual({ thing1: { value: 'Ada' }, thing2: { value: 'Hi' } });
  });

  it('keeps within the messaging.md limits: title 32, body 50', () => {
    expect([NOTIFICATION_TITLE_MAX, NOTIFICATION_BODY_MAX]).toEqual([32, 50]);
    const long = notificationFor('group', 'x'.repeat(400), 'G'.repeat(80), 'Ada');
    expect(long.title).toHaveLength(32);
    expect(long.title.endsWith('…')).toBe(true);
    expect(long.body).toHaveLength(50);
    expect(long.body.startsWith('Ada: xxx')).toBe(true);
    expect(notificationFor('group', 'x'.repeat(45), 'G'.repeat(32), 'Ada').body).toBe(`Ada: ${'x'.repeat(45)}`);
  });

  it('leads a group message to /pages/groupChat with the group in `to`, a private one to the sender', () => {
    const group = new GroupMessage();
    group.groupId = '7';
    group.senderId = '3';
    expect(notificationTarget(group)).toEqual({ url: '/pages/groupChat/groupChat', params: { to: '7' } });
    const direct = new PrivateMessage();
    direct.senderId = '3';
    expect(notificationTarget(direct)).toEqual({ url: '/pages/message/privateChat/privateChat', params: { to: '3' } });
  });
});
