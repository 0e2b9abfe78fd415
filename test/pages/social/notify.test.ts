import {
  NOTIFICATION_BODY_MAX,
  NOTIFICATION_TITLE_MAX,
  notificationFor,
  notificationTarget,
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
