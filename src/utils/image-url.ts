const ABSOLUTE_URL = /^(https?:|blob:|data:)/i;

/**
 * An image URL ready for <Image src>: absolute http(s), blob and data URLs stay as they are; anything else
 * is a path on the API server and gets the API base prefixed, with exactly one slash between them.
 */
export function withApiBase(url: string, apiBase: string): string {
  if (url === '' || ABSOLUTE_URL.test(url)) return url;
  const base = apiBase.replace(/\/+$/, '');
  return `${base}/${url.replace(/^\/+/, '')}`;
}
