import { ADMIN_ONLY_MESSAGE, goHome } from '@/core/navigation';
import { Text, View } from '@tarojs/components';
import './admin.css';

export function AdminDenied() {
  return (
    <View className="admin-denied">
      <Text className="admin-denied__title">Admins only</Text>
      <Text className="admin-denied__text">{ADMIN_ONLY_MESSAGE}</Text>
      <View className="admin-denied__home" onClick={() => void goHome()}>
        <Text>Back to the shop</Text>
      </View>
    </View>
  );
}
