import { Text, View } from '@tarojs/components';
import type { Color, Filter, GoodsSort } from '../../../types/api';
import { groupFilters } from './api';
import './filter-panel.css';

export const SORT_OPTIONS: readonly { sort: GoodsSort; label: string }[] = [
  { sort: 'newest', label: 'Newest' },
  { sort: 'price_asc', label: 'Price ↑' },
  { sort: 'price_desc', label: 'Price ↓' },
  { sort: 'discount', label: 'Discount' },
];

export function toggle(list: readonly number[], id: number): number[] {
  return list.includes(id) ? list.filter((item) => item !== id) : [...list, id];
}

export function SortBar({ sort, onSort }: { sort: GoodsSort; onSort(sort: GoodsSort): void }) {
  return (
    <View className="sort-bar">
      {SORT_OPTIONS.map((option) => (
        <Text
          key={option.sort}
          className={`sort-bar__item ${option.sort === sort ? 'sort-bar__item--active' : ''}`}
          onClick={() => onSort(option.sort)}
        >
          {option.label}
        </Text>
      ))}
    </View>
  );
}

/** Colour swatches in one scrolling row; several may be chosen (a frame in any of them matches). */
export function ColorChips({
  colors,
  selected,
  onToggle,
}: { colors: readonly Color[]; selected: readonly number[]; onToggle(id: number): void }) {
  return (
    <View className="color-chips">
      {colors.map((color) => (
        <View
          key={color.color_id}
          className={`color-chip ${selected.includes(color.color_id) ? 'color-chip--active' : ''}`}
          onClick={() => onToggle(color.color_id)}
        >
          <View className="color-chip__swatch" style={{ background: color.color_value }} />
          <Text className="color-chip__name">{color.color_name}</Text>
        </View>
      ))}
    </View>
  );
}

/** Every filter, grouped by Gender, Type, Shape, Material and Tag. */
export function FilterGroups({
  filters,
  selected,
  onToggle,
}: { filters: readonly Filter[]; selected: readonly number[]; onToggle(id: number): void }) {
  return (
    <View className="filter-groups">
      {groupFilters(filters).map((group) => (
        <View className="filter-group" key={group.type}>
          <Text className="filter-group__title">{group.type}</Text>
          <View className="filter-group__chips">
            {group.filters.map((filter) => (
              <Text
                key={filter.filter_id}
                className={`filter-chip ${selected.includes(filter.filter_id) ? 'filter-chip--active' : ''}`}
                onClick={() => onToggle(filter.filter_id)}
              >
                {filter.filter_name}
              </Text>
            ))}
          </View>
        </View>
      ))}
    </View>
  );
}
