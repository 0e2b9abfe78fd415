import { imageUrl } from '@/core/request';

/** The sanitized article HTML with its relative media paths pointed at the API server. */
export function absoluteMedia(html: string): string {
  return html.replace(
    /(<(?:img|video|source)\b[^>]*?\ssrc=")([^"]*)"/gi,
    (_, head: string, url: string) => `${head}${imageUrl(url)}"`,
  );
}
