import { useRouteRecord } from '@/core/use-route-record';
import { AdminChips, CategoryChips, EditorGate, useAdminEditor } from '@/features/admin/AdminEditor';
import { ImageStrip } from '@/features/admin/ImageStrip';
import {
  deleteGoods,
  getGoods,
  loadCategories,
  loadColors,
  loadFilters,
  saveGoods,
  unlistGoods,
} from '@/features/admin/api';
import { CONFIRM_CREATE_GOODS, CONFIRM_DELETE_GOODS, confirmAction } from '@/features/admin/confirm';
import {
  EMPTY_GOODS,
  type GoodsErrors,
  type GoodsForm,
  formToRequest,
  goodsToForm,
  pricePreview,
  toggle,
  validateGoods,
} from '@/features/admin/goods-form';
import { EDIT_LIST_PAGE, PRODUCT_EDIT_PAGE } from '@/features/admin/routes';
import { failureText } from '@/features/admin/use-admin';
import { FILTER_ORDER as FILTER_TYPES } from '@/features/catalog/api';
import { ActionButton, Field, FormFailure } from '@/ui/form/Field';
import { Text, View } from '@tarojs/components';
import Taro from '@tarojs/taro';
import { useEffect, useState } from 'react';
import type { Category, Color, Filter } from '../../../types/api';
import '@/features/admin/admin.css';
import '@/ui/form/form.css';

const loadGoods = (id: number) => getGoods(id).then(goodsToForm);

export default function ProductEdit() {
  useRouteRecord();
  const { access, form, setForm, errors, setErrors, failure, setFailure, busy, run } = useAdminEditor<
    GoodsForm,
    GoodsErrors
  >({
    empty: EMPTY_GOODS,
    load: loadGoods,
    loadFailure: 'Could not load these glasses',
    saveFailure: 'The glasses could not be saved',
  });
  const [colors, setColors] = useState<Color[]>([]);
  const [filters, setFilters] = useState<Filter[]>([]);
  const [categories, setCategories] = useState<Category[]>([]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: loads again only for another user
  useEffect(() => {
    if (access !== 'admin') return;
    loadColors().then(setColors, (error: unknown) => setFailure(failureText(error, 'Could not load the colours')));
    loadFilters().then(setFilters, (error: unknown) => setFailure(failureText(error, 'Could not load the filters')));
    loadCategories().then(
      (page) => setCategories(page.list),
      () => undefined,
    );
  }, [access]);

  if (access !== 'admin' || !form) return <EditorGate access={access} failure={failure} loading="Loading glasses…" />;

  const update = (patch: Partial<GoodsForm>) => {
    setForm({ ...form, ...patch });
    const cleared = Object.keys(patch).flatMap((key) => (key === 'colours' ? ['colours', 'stock'] : [key]));
    setErrors((current) => Object.fromEntries(Object.entries(current).filter(([key]) => !cleared.includes(key))));
  };

  const toggleColour = (colorId: number) => {
    const chosen = form.colours.some((colour) => colour.color_id === colorId);
    update({
      colours: chosen
        ? form.colours.filter((colour) => colour.color_id !== colorId)
        : [...form.colours, { color_id: colorId, images: [], stock: '' }],
    });
  };

  const updateColour = (colorId: number, patch: Partial<GoodsForm['colours'][number]>) =>
    update({ colours: form.colours.map((colour) => (colour.color_id === colorId ? { ...colour, ...patch } : colour)) });

  const save = () => {
    const found = validateGoods(form);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      setFailure('Please correct the fields marked in red');
      return;
    }
    void run(async () => {
      if (!form.goods_id && !(await confirmAction(CONFIRM_CREATE_GOODS))) return;
      const saved = await saveGoods(formToRequest(form));
      void Taro.showToast({ title: 'Saved', icon: 'success', duration: 1500 });
      if (form.goods_id) setForm(goodsToForm(saved));
      else void Taro.redirectTo({ url: `${PRODUCT_EDIT_PAGE}?id=${saved.goods_id}` });
    });
  };

  const switchListing = () =>
    void run(async () => {
      if (!form.goods_id) return;
      const saved = await unlistGoods(form.goods_id, form.is_on_sale);
      setForm({ ...form, is_on_sale: saved.is_on_sale });
      void Taro.showToast({ title: saved.is_on_sale ? 'Back on sale' : 'Unlisted', icon: 'success', duration: 1500 });
    });

  const remove = () =>
    void run(async () => {
      if (!form.goods_id || !(await confirmAction(CONFIRM_DELETE_GOODS))) return;
      await deleteGoods(form.goods_id);
      void Taro.showToast({ title: 'Deleted', icon: 'success', duration: 1500 });
      void Taro.redirectTo({ url: EDIT_LIST_PAGE });
    });

  const preview = pricePreview(form);

  return (
    <View className="admin-page">
      {form.goods_id ? (
        <Text className="admin-status">
          #{form.goods_id} · {form.is_on_sale ? 'On sale' : 'Unlisted: hidden from shoppers'}
        </Text>
      ) : (
        <Text className="admin-status">New glasses</Text>
      )}
      <View className="admin-section">
        <Text className="admin-section__title">Main image</Text>
        <ImageStrip
          name="goods-image"
          images={form.image ? [form.image] : []}
          onChange={(images) => update({ image: images[0] ?? '' })}
          saveTo="GOODS"
          max={1}
          addLabel="Upload"
        />
        {errors.image && <Text className="admin-section__error">{errors.image}</Text>}
      </View>
      <View className="admin-section">
        <Field
          label="Name"
          name="goods_name"
          value={form.name}
          error={errors.name}
          maxlength={140}
          onChange={(name) => update({ name })}
        />
        <Field
          label="Description"
          name="goods_desc"
          multiline
          maxlength={5000}
          value={form.description}
          onChange={(description) => update({ description })}
        />
        <Field
          label="Price"
          name="shop_price"
          type="digit"
          value={form.price}
          placeholder="89.00"
          error={errors.price}
          onChange={(price) => update({ price })}
        />
        <Field
          label="Shoppers pay (% of the price)"
          name="discount"
          type="number"
          maxlength={3}
          value={form.discount}
          hint="100 = full price, 80 = 20% off"
          error={errors.discount}
          onChange={(discount) => update({ discount })}
        />
        {preview && <Text className="admin-price-preview">{preview}</Text>}
      </View>
      <View className="admin-section">
        <Text className="admin-section__title">Colours</Text>
        <AdminChips
          chips={colors.map((color) => ({
            key: color.color_id,
            label: color.color_name,
            on: form.colours.some((colour) => colour.color_id === color.color_id),
            swatch: color.color_value,
          }))}
          onTap={toggleColour}
        />
        {errors.colours && <Text className="admin-section__error">{errors.colours}</Text>}
        {form.colours.map((colour) => {
          const color = colors.find((candidate) => candidate.color_id === colour.color_id);
          return (
            <View key={colour.color_id} className="admin-colour">
              <View className="admin-colour__name">
                <View className="admin-chip__swatch" style={{ background: color?.color_value ?? '#ccc' }} />
                <Text>{color?.color_name ?? `Colour ${colour.color_id}`}</Text>
              </View>
              <ImageStrip
                name={`colour-${colour.color_id}-images`}
                images={colour.images}
                onChange={(images) => updateColour(colour.color_id, { images })}
                saveTo="GOODS"
                max={20}
                addLabel="Add photos"
              />
              <Field
                label="Stock (empty: not tracked)"
                name={`stock-${colour.color_id}`}
                type="number"
                value={colour.stock}
                maxlength={6}
                onChange={(stock) => updateColour(colour.color_id, { stock })}
              />
            </View>
          );
        })}
        {errors.stock && <Text className="admin-section__error">{errors.stock}</Text>}
      </View>
      <View className="admin-section">
        <Text className="admin-section__title">Filters</Text>
        {FILTER_TYPES.map((type) => {
          const ofType = filters.filter((filter) => filter.type === type);
          if (ofType.length === 0) return null;
          return (
            <View key={type} className="admin-filter-group">
              <Text className="admin-filter-group__type">{type}</Text>
              <AdminChips
                chips={ofType.map((filter) => ({
                  key: filter.filter_id,
                  label: filter.filter_name,
                  on: form.filter_ids.includes(filter.filter_id),
                }))}
                onTap={(filterId) => update({ filter_ids: toggle(form.filter_ids, filterId) })}
              />
            </View>
          );
        })}
        {categories.length > 0 && (
          <View className="admin-filter-group">
            <Text className="admin-filter-group__type">Category</Text>
            <CategoryChips
              categories={categories}
              value={form.category_id}
              onChange={(category_id) => update({ category_id })}
            />
          </View>
        )}
      </View>
      <FormFailure message={failure} />
      <View className="admin-actions">
        <ActionButton
          label={form.goods_id ? 'Save changes' : 'Create glasses'}
          name="save"
          busy={busy}
          onClick={save}
        />
        {form.goods_id ? (
          <ActionButton
            label={form.is_on_sale ? 'Unlist' : 'Put back on sale'}
            name="unlist"
            kind="secondary"
            busy={busy}
            onClick={switchListing}
          />
        ) : null}
        {form.goods_id ? (
          <ActionButton label="Delete glasses" name="delete" kind="danger" busy={busy} onClick={remove} />
        ) : null}
      </View>
    </View>
  );
}
