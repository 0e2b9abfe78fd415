import { goBack } from '@/core/navigation';
import { Text, View } from '@tarojs/components';
import './shop.css';

export type LoadState = 'loading' | 'ready' | 'error';

interface StateViewProps {
  state: LoadState;
  error?: string;
  onRetry?: () => void;
}

/**
 * The loading and failed states of a page or section; nothing once its data is ready. A failure always offers a
 * way on: "Try again" when the caller can load again, else "Go back" (never a dead end).
 */
export function StateView({ state, error, onRetry }: StateViewProps) {
  if (state === 'loading') {
    return (
      <View className="shop-state">
        <View className="shop-state__spinner" />
        <Text className="shop-state__text">Loading…</Text>
      </View>
    );
  }
  if (state === 'error') {
    return (
      <View className="shop-state">
        <Text className="shop-state__title">Could not load this page</Text>
        <Text className="shop-state__text">{error}</Text>
        {onRetry ? (
          <View className="shop-button shop-button--ghost shop-state__action" onClick={onRetry}>
            <Text>Try again</Text>
          </View>
        ) : (
          <View className="shop-button shop-button--ghost shop-state__action" onClick={() => void goBack()}>
            <Text>Go back</Text>
          </View>
        )}
      </View>
    );
  }
  return null;
}

interface EmptyViewProps {
  title: string;
  hint?: string;
  action?: string;
  onAction?: () => void;
}

export function EmptyView({ title, hint, action, onAction }: EmptyViewProps) {
  return (
    <View className="shop-state">
      <View className="shop-state__icon" />
      <Text className="shop-state__title">{title}</Text>
      {hint && <Text className="shop-state__text">{hint}</Text>}
      {action && onAction && (
        <View className="shop-button shop-state__action" onClick={onAction}>
          <Text>{action}</Text>
        </View>
      )}
    </View>
  );
}

/** A failed part of a page that still shows the rest: what failed, with "Try again" beside it. */
export function FailureLine({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <View className="shop-failure-line">
      <Text className="shop-failure-line__text">{message}</Text>
      <Text className="shop-failure-line__retry" onClick={onRetry}>
        Try again
      </Text>
    </View>
  );
}
