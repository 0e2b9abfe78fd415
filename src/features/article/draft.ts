import { isRichTextEmpty } from '@/utils/rich-text';
import { atom } from 'jotai';
import type { ArticleInput } from '../../../types/api';

/** The navigation title of the new-article flow. */
export const EDIT_TITLE = '内容编辑';
export const TITLE_REQUIRED = '请填写标题~';
export const COVER_REQUIRED = '封面或轮播图不能为空~';
export const CONTENT_REQUIRED = '请填写正文内容~';
export const MAX_CAROUSEL = 9;

/** One piece of the article body, in order: a paragraph, an image or a video (uploaded URLs). */
export type Block = { kind: 'text'; text: string } | { kind: 'image'; url: string } | { kind: 'video'; url: string };

export interface ArticleDraft {
  title: string;
  category_id: number | null;
  cover: string;
  imgsUrl: string[];
  blocks: Block[];
}

export const emptyDraft = (): ArticleDraft => ({
  title: '',
  category_id: null,
  cover: '',
  imgsUrl: [],
  blocks: [{ kind: 'text', text: '' }],
});

/** The draft lives across addarticle-main, addarticle-next and preview. */
export const draftAtom = atom<ArticleDraft>(emptyDraft());

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const escapeAttribute = (url: string) => url.replace(/"/g, '%22');

/** The body as HTML: paragraphs keep their line breaks, media become img and video tags. */
export function draftHtml(blocks: Block[]): string {
  return blocks
    .map((block) => {
      if (block.kind === 'image') return `<p><img src="${escapeAttribute(block.url)}" style="width:100%"></p>`;
      if (block.kind === 'video')
        return `<p><video src="${escapeAttribute(block.url)}" controls width="100%"></video></p>`;
      const text = block.text.trim();
      return text ? `<p>${escapeHtml(text).replace(/\n/g, '<br>')}</p>` : '';
    })
    .join('');
}

/** The first rule the first page breaks: the title, then the cover and at least one carousel image. */
export function checkHeader(draft: ArticleDraft): string | null {
  if (draft.title.trim() === '') return TITLE_REQUIRED;
  if (draft.cover === '' || draft.imgsUrl.length === 0) return COVER_REQUIRED;
  return null;
}

/** Everything before preview and publish: the header rules, then the rich-text empty rule. */
export function checkDraft(draft: ArticleDraft): string | null {
  return checkHeader(draft) ?? (isRichTextEmpty(draftHtml(draft.blocks)) ? CONTENT_REQUIRED : null);
}

export function draftInput(draft: ArticleDraft): ArticleInput {
  return {
    title: draft.title.trim(),
    cover: draft.cover,
    imgsUrl: draft.imgsUrl,
    content: draftHtml(draft.blocks),
    category_id: draft.category_id,
  };
}
