import type { AnyMessage } from '@/messaging';

/** One line that stands for a message in lists and previews. */
export function describeMessage(message: AnyMessage | undefined, myId: string): string {
  if (!message) return '';
  if (message.recalled) return message.senderId === myId ? 'You recalled a message' : 'A message was recalled';
  return describeContent(message.type, message.payload as Record<string, unknown>);
}

/** The line for a message of `type` with `payload`, before the message exists (a notification is made with it). */
export function describeContent(type: string, payload: Record<string, unknown>): string {
  switch (type) {
    case 'text':
      return String(payload.text ?? '');
    case 'image':
      return '[Image]';
    case 'video':
      return '[Video]';
    case 'audio':
      return '[Voice]';
    case 'file':
      return `[File] ${String(payload.name ?? '')}`;
    case 'order':
      return '[Order]';
    case 'goods':
      return '[Product]';
    case 'location':
      return `[Location] ${String(payload.name ?? '')}`;
    default:
      return '[Message]';
  }
}
