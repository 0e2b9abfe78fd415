import { useOnline } from '@/core/use-network';
import { Text, View } from '@tarojs/components';
import './offline.css';

export const OFFLINE_TEXT = 'You are offline. What you asked for waits until the connection is back.';

/** A banner over the page while the device is offline; it goes away when the connection is back. */
export function OfflineBanner() {
  const online = useOnline();
  if (online) return null;
  return (
    <View className="offline-banner">
      <Text>{OFFLINE_TEXT}</Text>
    </View>
  );
}
