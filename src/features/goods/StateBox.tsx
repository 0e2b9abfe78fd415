import { Text, View } from '@tarojs/components';
import './goods-card.css';

/** A page-sized message: loading, empty or failed, with an optional action. */
export function StateBox({
  title,
  text,
  action,
  onAction,
}: { title?: string; text?: string; action?: string; onAction?(): void }) {
  return (
    <View className="state-box">
      {title && <Text className="state-box__title">{title}</Text>}
      {text && <Text className="state-box__text">{text}</Text>}
      {action && onAction && (
        <Text className="state-box__button" onClick={onAction}>
          {action}
        </Text>
      )}
    </View>
  );
}
