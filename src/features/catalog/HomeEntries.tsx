import { openPage } from '@/core/navigation';
import { PRODUCT_LIST_PAGE } from '@/features/goods/api';
import { REVIEWS_PAGE } from '@/features/review/api';
import { Text, View } from '@tarojs/components';
import { useEffect, useState } from 'react';
import type { Color } from '../../../types/api';
import { CATEGORY_LIST_PAGE, CATEGORY_PAGE, fetchColors } from './api';
import { HOME_SECTION_PAGE } from './home-api';
import './home-entries.css';

/** Swatches held in place while the colours load, so that nothing under them moves when they come. */
const PLACEHOLDER_SWATCHES = [1, 2, 3, 4, 5];

/**
 * Home shortcuts: every frame, the categories, and one entry per colour into the filtered list. The colours load
 * behind home's first screen, quietly (no loading toast over the shop), in a strip whose height is kept meanwhile.
 */
export function HomeEntries() {
  const [colors, setColors] = useState<Color[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` changes when the shopper taps Try again
  useEffect(() => {
    setFailed(false);
    fetchColors({ loading: false }).then(setColors, () => setFailed(true));
  }, [attempt]);
  return (
    <View className="home-entries">
      <View className="home-entries__links">
        <Text className="home-entries__link" onClick={() => void openPage(PRODUCT_LIST_PAGE)}>
          All frames
        </Text>
        <Text className="home-entries__link" onClick={() => void openPage(CATEGORY_PAGE)}>
          Categories
        </Text>
        <Text className="home-entries__link" onClick={() => void openPage(REVIEWS_PAGE)}>
          Reviews
        </Text>
      </View>
      {failed && (
        <View className="home-entries__failed">
          <Text className="home-entries__failed-text">Could not load the colours</Text>
          <Text className="home-entries__retry" onClick={() => setAttempt((times) => times + 1)}>
            Try again
          </Text>
        </View>
      )}
      {colors === null && !failed && (
        <View>
          <Text className="home-entries__title">Shop by colour</Text>
          <View className="home-entries__colors">
            {PLACEHOLDER_SWATCHES.map((key) => (
              <View className="home-entries__color" key={key}>
                <View className="home-entries__swatch home-entries__swatch--placeholder" />
                <Text className="home-entries__color-name">{'\u00a0'}</Text>
              </View>
            ))}
          </View>
        </View>
      )}
      {colors !== null && colors.length > 0 && (
        <View>
          <Text className="home-entries__title">Shop by colour</Text>
          <View className="home-entries__colors">
            {colors.map((color) => (
              <View
                className="home-entries__color"
                key={color.color_id}
                onClick={() => void openPage(PRODUCT_LIST_PAGE, { color_id: String(color.color_id) })}
              >
                <View className="home-entries__swatch" style={{ background: color.color_value }} />
                <Text className="home-entries__color-name">{color.color_name}</Text>
              </View>
            ))}
          </View>
        </View>
      )}
    </View>
  );
}

export function openCategory(categoryId: number, name: string): void {
  void openPage(CATEGORY_LIST_PAGE, { id: String(categoryId), name });
}

export function openHomeSection(id: number): void {
  void openPage(HOME_SECTION_PAGE, { id: String(id) });
}
