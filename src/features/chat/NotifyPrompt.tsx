import { Text, View } from '@tarojs/components';
import { useState } from 'react';
import { chatPlatform } from './platform';

/** Why the app asks for notifications, shown before the browser's own prompt. */
export const NOTIFY_REASON = 'Turn on notifications to hear about new messages while you browse the shop.';
export const NOTIFY_ACCEPT = 'Turn on';
export const NOTIFY_DECLINE = 'Not now';

/** "Not now" holds for the rest of the visit: the next chat does not ask again. */
let declined = false;

/**
 * The notification permission is asked at the user's first chat, never on load: the reason is shown here
 * and the browser's prompt opens only from the tap on "Turn on". Nothing is shown once the user has answered
 * (the browser remembers), after "Not now", or where the platform has no notifications to ask for.
 */
export function NotifyPrompt() {
  const [permission, setPermission] = useState(() => chatPlatform.notificationPermission());
  const [hidden, setHidden] = useState(declined);
  if (hidden || permission !== 'default') return null;
  const accept = () => {
    chatPlatform.requestNotificationPermission().then(setPermission, () => setHidden(true));
  };
  const decline = () => {
    declined = true;
    setHidden(true);
  };
  return (
    <View className="chat__notify-prompt">
      <Text className="chat__notify-reason">{NOTIFY_REASON}</Text>
      <View className="chat__notify-actions">
        <Text className="chat__notify-button chat__notify-button--on" onClick={accept}>
          {NOTIFY_ACCEPT}
        </Text>
        <Text className="chat__notify-button" onClick={decline}>
          {NOTIFY_DECLINE}
        </Text>
      </View>
    </View>
  );
}
