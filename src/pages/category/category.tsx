import { openPage } from '@/core/navigation';
import { imageUrl } from '@/core/request';
import { useRouteRecord } from '@/core/use-route-record';
import { CATEGORY_LIST_PAGE, fetchCategories } from '@/features/catalog/api';
import { StateBox } from '@/features/goods/StateBox';
import { failureMessage } from '@/features/goods/api';
import { Image, Text, View } from '@tarojs/components';
import { useCallback, useEffect, useState } from 'react';
import type { Category } from '../../../types/api';
import './category.css';

export const CATEGORIES_FAILED = 'The categories could not be loaded.';

type CategoriesState =
  | { kind: 'loading' }
  | { kind: 'error'; message: string }
  | { kind: 'ready'; categories: Category[] };

export default function CategoryPage() {
  useRouteRecord();
  const [state, setState] = useState<CategoriesState>({ kind: 'loading' });
  const load = useCallback(() => {
    setState({ kind: 'loading' });
    fetchCategories().then(
      (page) => setState({ kind: 'ready', categories: page.list }),
      (failure: unknown) => setState({ kind: 'error', message: failureMessage(failure, CATEGORIES_FAILED) }),
    );
  }, []);
  useEffect(() => {
    load();
  }, [load]);

  if (state.kind === 'loading') return <StateBox text="Loading categories…" />;
  if (state.kind === 'error') return <StateBox title={state.message} action="Try again" onAction={load} />;
  if (state.categories.length === 0) return <StateBox title="No categories yet" text="Browse every frame instead." />;
  return (
    <View className="category-page">
      {state.categories.map((category) => (
        <View
          className="category-card"
          key={category.category_id}
          onClick={() =>
            void openPage(CATEGORY_LIST_PAGE, { id: String(category.category_id), name: category.category_name })
          }
        >
          <Image className="category-card__image" src={imageUrl(category.category_img)} mode="aspectFill" />
          <Text className="category-card__name">{category.category_name}</Text>
        </View>
      ))}
    </View>
  );
}
