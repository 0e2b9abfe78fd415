import { isRichTextEmpty } from '@/utils/rich-text';
import type { Article, ArticleInput } from '../../../types/api';

/** shop-app.md §5, verbatim. */
export const TITLE_REQUIRED = '请填写标题~';
export const COVER_REQUIRED = '封面或轮播图不能为空~';
export const CONTENT_REQUIRED = 'Write some text or add an image to the article';

/**
 * The body is edited as a list of blocks: paragraphs of text, images, and pieces of existing HTML the
 * paragraph editor cannot show as plain text (headings, lists, styled text), which are kept exactly as they are.
 */
export type Block = { kind: 'text'; text: string } | { kind: 'image'; url: string } | { kind: 'html'; html: string };

export interface ArticleForm {
  article_id?: number;
  title: string;
  cover: string;
  images: string[];
  blocks: Block[];
  category_id: number | null;
}

export type ArticleErrors = Partial<Record<'title' | 'cover' | 'content', string>>;

export const EMPTY_ARTICLE: ArticleForm = {
  title: '',
  cover: '',
  images: [],
  blocks: [{ kind: 'text', text: '' }],
  category_id: null,
};

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const unescapeHtml = (text: string) =>
  text
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

export function blocksToHtml(blocks: Block[]): string {
  return blocks
    .map((block) => {
      if (block.kind === 'image') return `<p><img src="${escapeHtml(block.url)}" alt="" /></p>`;
      if (block.kind === 'html') return block.html;
      return block.text
        .split(/\n{2,}/)
        .map((paragraph) => paragraph.trim())
        .filter((paragraph) => paragraph !== '')
        .map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\n/g, '<br />')}</p>`)
        .join('');
    })
    .join('');
}

const TOP_LEVEL = /<(p|h[1-6]|ul|ol|blockquote|pre|div|figure|table|video)\b[^>]*>[\s\S]*?<\/\1>|<img\b[^>]*>/gi;
const LONE_IMAGE = /^<p>\s*<img\b[^>]*\bsrc="([^"]*)"[^>]*>\s*<\/p>$|^<img\b[^>]*\bsrc="([^"]*)"[^>]*>$/i;
const PLAIN_PARAGRAPH = /^<p>((?:(?!<(?!br\s*\/?>)).)*)<\/p>$/is;

/** Splits stored HTML into blocks; joining them again with blocksToHtml keeps what the reader sees. */
export function htmlToBlocks(html: string): Block[] {
  const blocks: Block[] = [];
  const pushText = (text: string) => {
    const last = blocks[blocks.length - 1];
    if (last?.kind === 'text') last.text = `${last.text}\n\n${text}`;
    else blocks.push({ kind: 'text', text });
  };
  let position = 0;
  const rest = (end: number) => {
    const between = html.slice(position, end).trim();
    if (between !== '') blocks.push({ kind: 'html', html: between });
  };
  for (const match of html.matchAll(TOP_LEVEL)) {
    rest(match.index ?? 0);
    position = (match.index ?? 0) + match[0].length;
    const piece = match[0];
    const image = LONE_IMAGE.exec(piece);
    const plain = PLAIN_PARAGRAPH.exec(piece);
    if (image) blocks.push({ kind: 'image', url: unescapeHtml(image[1] ?? image[2]) });
    else if (plain) pushText(unescapeHtml(plain[1].replace(/<br\s*\/?>/gi, '\n')).trim());
    else blocks.push({ kind: 'html', html: piece });
  }
  rest(html.length);
  if (blocks.length === 0 || blocks[blocks.length - 1].kind !== 'text') blocks.push({ kind: 'text', text: '' });
  return blocks;
}

export function articleToForm(article: Article): ArticleForm {
  return {
    article_id: article.article_id,
    title: article.title,
    cover: article.cover,
    images: article.imgsUrl,
    blocks: htmlToBlocks(article.content),
    category_id: article.category_id,
  };
}

export function validateArticle(form: ArticleForm): ArticleErrors {
  const errors: ArticleErrors = {};
  if (form.title.trim() === '') errors.title = TITLE_REQUIRED;
  if (form.cover === '' || form.images.length === 0) errors.cover = COVER_REQUIRED;
  if (isRichTextEmpty(blocksToHtml(form.blocks))) errors.content = CONTENT_REQUIRED;
  return errors;
}

export function formToArticle(form: ArticleForm): ArticleInput {
  return {
    title: form.title.trim(),
    cover: form.cover,
    imgsUrl: form.images,
    content: blocksToHtml(form.blocks),
    category_id: form.category_id,
  };
}
