import { Text, View } from '@tarojs/components';

export default function Page() {
  return (
    <View>
      <Text>mine</Text>
    </View>
  );
}
