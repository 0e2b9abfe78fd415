import { imageUrl } from '@/core/request';
import { useRouteRecord } from '@/core/use-route-record';
import { CategoryChips, EditorGate, useAdminEditor } from '@/features/admin/AdminEditor';
import { ImageStrip } from '@/features/admin/ImageStrip';
import {
  deleteArticle,
  getArticle,
  insertArticle,
  loadArticleCategories,
  pickAndUpload,
  updateArticle,
} from '@/features/admin/api';
import {
  type ArticleErrors,
  type ArticleForm,
  type Block,
  EMPTY_ARTICLE,
  articleToForm,
  formToArticle,
  validateArticle,
} from '@/features/admin/article-form';
import { CONFIRM_DELETE_ARTICLE, confirmAction } from '@/features/admin/confirm';
import { ARTICLE_EDIT_PAGE, EDIT_LIST_PAGE } from '@/features/admin/routes';
import { failureText } from '@/features/admin/use-admin';
import { ActionButton, Field, FormFailure } from '@/ui/form/Field';
import { Image, RichText, Text, Textarea, View } from '@tarojs/components';
import Taro from '@tarojs/taro';
import { useEffect, useState } from 'react';
import type { ArticleCategory } from '../../../types/api';
import '@/features/admin/admin.css';
import '@/ui/form/form.css';

const loadArticle = (id: number) => getArticle(id).then(articleToForm);

export default function ArticleEdit() {
  useRouteRecord();
  const { access, form, setForm, errors, setErrors, failure, setFailure, busy, run } = useAdminEditor<
    ArticleForm,
    ArticleErrors
  >({
    empty: EMPTY_ARTICLE,
    load: loadArticle,
    loadFailure: 'Could not load the article',
    saveFailure: 'The article could not be saved',
  });
  const [categories, setCategories] = useState<ArticleCategory[]>([]);

  useEffect(() => {
    if (access === 'admin') loadArticleCategories().then(setCategories, () => undefined);
  }, [access]);

  if (access !== 'admin' || !form) return <EditorGate access={access} failure={failure} loading="Loading article…" />;

  const update = (patch: Partial<ArticleForm>, clears?: keyof ArticleErrors) => {
    setForm({ ...form, ...patch });
    if (clears) setErrors((current) => ({ ...current, [clears]: undefined }));
  };
  const setBlocks = (blocks: Block[]) => update({ blocks }, 'content');
  const replaceBlock = (index: number, block: Block) =>
    setBlocks(form.blocks.map((old, other) => (other === index ? block : old)));
  const removeBlock = (index: number) => {
    const rest = form.blocks.filter((_, other) => other !== index);
    setBlocks(rest.length > 0 ? rest : [{ kind: 'text', text: '' }]);
  };

  const addImage = async () => {
    try {
      const urls = await pickAndUpload('ARTICLE', 9);
      setBlocks([...form.blocks, ...urls.map((url): Block => ({ kind: 'image', url })), { kind: 'text', text: '' }]);
    } catch (error) {
      const text = failureText(error, '');
      if (text && !/cancel/i.test(text)) setFailure(text);
    }
  };

  const save = () => {
    const found = validateArticle(form);
    setErrors(found);
    const first = found.title ?? found.cover ?? found.content;
    if (first) {
      void Taro.showToast({ title: first, icon: 'none', duration: 2000 });
      return;
    }
    void run(async () => {
      const input = formToArticle(form);
      const saved = form.article_id ? await updateArticle(form.article_id, input) : await insertArticle(input);
      void Taro.showToast({ title: 'Saved', icon: 'success', duration: 1500 });
      if (form.article_id) setForm(articleToForm(saved));
      else void Taro.redirectTo({ url: `${ARTICLE_EDIT_PAGE}?id=${saved.article_id}` });
    });
  };

  const remove = () =>
    void run(async () => {
      if (!form.article_id || !(await confirmAction(CONFIRM_DELETE_ARTICLE))) return;
      await deleteArticle(form.article_id);
      void Taro.showToast({ title: 'Deleted', icon: 'success', duration: 1500 });
      void Taro.redirectTo({ url: `${EDIT_LIST_PAGE}?tab=articles` });
    });

  return (
    <View className="admin-page">
      <Text className="admin-status">{form.article_id ? `Article #${form.article_id}` : 'New article'}</Text>
      <View className="admin-section">
        <Field
          label="Title"
          name="title"
          value={form.title}
          error={errors.title}
          maxlength={120}
          onChange={(title) => update({ title }, 'title')}
        />
      </View>
      <View className="admin-section">
        <Text className="admin-section__title">Cover</Text>
        <ImageStrip
          name="cover"
          images={form.cover ? [form.cover] : []}
          onChange={(images) => update({ cover: images[0] ?? '' }, 'cover')}
          saveTo="ARTICLE"
          max={1}
          addLabel="Upload cover"
        />
        <Text className="admin-section__title admin-section__title--spaced">Carousel images</Text>
        <ImageStrip
          name="carousel"
          images={form.images}
          onChange={(images) => update({ images }, 'cover')}
          saveTo="ARTICLE"
          max={9}
          addLabel="Add images"
        />
        {errors.cover && <Text className="admin-section__error">{errors.cover}</Text>}
      </View>
      {categories.length > 0 && (
        <View className="admin-section">
          <Text className="admin-section__title">Category</Text>
          <CategoryChips
            categories={categories}
            value={form.category_id}
            onChange={(category_id) => update({ category_id })}
          />
        </View>
      )}
      <View className="admin-section">
        <Text className="admin-section__title">Article</Text>
        <Text className="admin-section__hint">Separate paragraphs with an empty line.</Text>
        {form.blocks.map((block, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: blocks have no identity of their own; their place is it
          <View key={index} className="article-block">
            {block.kind === 'text' && (
              <Textarea
                className="form-field__textarea"
                name={`block-${index}`}
                value={block.text}
                maxlength={20000}
                autoHeight
                placeholder="Write here…"
                onInput={(event) => replaceBlock(index, { kind: 'text', text: event.detail.value })}
              />
            )}
            {block.kind === 'image' && (
              <Image className="article-block__image" src={imageUrl(block.url)} mode="widthFix" />
            )}
            {block.kind === 'html' && <RichText className="article-block__html" nodes={block.html} />}
            {(block.kind !== 'text' || form.blocks.length > 1) && (
              <Text className="article-block__remove" onClick={() => removeBlock(index)}>
                Remove {block.kind === 'image' ? 'image' : block.kind === 'html' ? 'section' : 'paragraph'}
              </Text>
            )}
          </View>
        ))}
        {errors.content && <Text className="admin-section__error">{errors.content}</Text>}
        <View className="article-tools">
          <View
            className="article-tools__button"
            onClick={() => setBlocks([...form.blocks, { kind: 'text', text: '' }])}
          >
            <Text>+ Paragraph</Text>
          </View>
          <View className="article-tools__button" onClick={() => void addImage()}>
            <Text>+ Image</Text>
          </View>
        </View>
      </View>
      <FormFailure message={failure} />
      <View className="admin-actions">
        <ActionButton
          label={form.article_id ? 'Save changes' : 'Publish article'}
          name="save"
          busy={busy}
          onClick={save}
        />
        {form.article_id ? (
          <ActionButton label="Delete article" name="delete" kind="danger" busy={busy} onClick={remove} />
        ) : null}
      </View>
    </View>
  );
}
