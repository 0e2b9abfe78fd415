import { Text, View } from '@tarojs/components';

export default function Index() {
  return (
    <View className="home">
      <Text>Lensmate</Text>
    </View>
  );
}
