const ENTITIES: Record<string, string> = { nbsp: ' ', amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" };

/**
 * Rich text is empty when no image, no video and no visible text remains once the tags are stripped:
 * '<p><br></p>' and '<p>&nbsp;</p>' are empty, '<p><img src="a.png"></p>' is not.
 */
export function isRichTextEmpty(html: string | null | undefined): boolean {
  if (!html) return true;
  if (/<(img|video)\b/i.test(html)) return false;
  const text = html
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1>/gi, '')
    .replace(/<[^>]*>/g, '')
    .replace(/&(nbsp|amp|lt|gt|quot|#39);/g, (_, name: string) => ENTITIES[name])
    .replace(/[\s\u200b\ufeff]/g, '');
  return text.length === 0;
}
