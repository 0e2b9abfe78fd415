import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync, constants as zlibConstants } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { withApiBase } from '../../src/utils/image-url';
import type { HomeBanner, HomePage, ShopConfig } from '../../types/api';

/**
 * The first screen of home, prerendered into the H5 site's index.html for `/` and `/pages/index/index`: the
 * header, the banners and the categories as the app draws them (src/features/home/HomeHeader.tsx and
 * HomeContent.tsx's first screen, with Taro's HTML components: View a div, Text a span.taro-text, Image a
 * div.taro-img around an img), styled by the site's first stylesheet, so the screen paints before any script.
 *
 * The data the markup was made from travels beside it as a JSON data block (`<script type="application/json">`,
 * which the browser never runs, so the strict script-src of the CSP stays as it is), and the app's home starts
 * from it instead of asking again (src/features/home/prerendered.h5.ts). The prerendered markup lies over the
 * app's page (`.lm-prerender`, absolutely placed at the top) until the app's home is on screen beneath it at the
 * same places, then the app removes it: nothing on screen moves.
 *
 * Every catalogue string (admins and shoppers write them) is escaped for HTML text or attributes, image URLs are
 * kept only when they are site paths or http(s) URLs, and the JSON block escapes `<`, `>`, `&` and the line
 * separators, so no string ends the block. When the home answer fails, the plain index.html goes out.
 */

export const PRERENDER_ID = 'lm-prerender';
export const HOME_DATA_ID = 'lm-home-data';
export const PRERENDERED_PATHS = ['/', '/pages/index/index'];
/** The texts of src/features/home/HomeHeader.tsx and HomeContent.tsx. */
const TEXT = {
  title: 'Lensmate',
  subtitle: 'Prescription glasses, made easy',
  search: 'Search frames, shapes, colours',
  categories: 'Shop by category',
};
/** Categories per row, as src/utils/format.ts's chunk() groups them. */
const CATEGORIES_PER_ROW = 3;

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text or a double-quoted attribute value, escaped. */
export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]);
}

/** JSON that can sit inside a script element: no `</script>`, no `<!--`, no line separators. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** An image URL as the app computes it (the H5 API base is the site itself), or '' for any other scheme. */
export function safeImageUrl(url: unknown): string {
  if (typeof url !== 'string' || url === '') return '';
  const resolved = withApiBase(url, '');
  if (/^https?:\/\//i.test(resolved)) return resolved;
  return resolved.startsWith('/') && !resolved.startsWith('//') ? resolved : '';
}

const text = (className: string, content: string) =>
  `<span class="taro-text ${className}">${escapeHtml(content)}</span>`;

function image(className: string, url: string, mode: 'aspectfit' | 'aspectfill', extra = ''): string {
  const src = safeImageUrl(url);
  const attribute = src ? ` src="${escapeHtml(src)}"` : '';
  return `<div class="taro-img ${className}"><img class="taro-img__mode-${mode}"${attribute}${extra}></div>`;
}

function header(logo: string): string {
  const mark = safeImageUrl(logo)
    ? image('home__logo', logo, 'aspectfit')
    : `<div class="home__logo home__logo--placeholder"><span class="taro-text">L</span></div>`;
  return (
    `<div class="home__header"><div class="home__brand">${mark}<div class="home__brand-text">` +
    `${text('home__title', TEXT.title)}${text('home__subtitle', TEXT.subtitle)}</div></div>` +
    `<div class="home__search"><div class="home__search-icon"></div>${text('home__search-text', TEXT.search)}</div></div>`
  );
}

function banners(list: HomeBanner[]): string {
  if (list.length === 0) return '';
  const slides = list
    .map((banner, index) => {
      // The first banner is what the screen is waiting for (the largest paint): fetched first, never lazily.
      const priority = index === 0 ? ' fetchpriority="high"' : ' loading="lazy"';
      const title = banner.title ? text('home__banner-title', banner.title) : '';
      return `<div class="lm-carousel__slide">${image('home__banner-image', banner.image, 'aspectfill', priority)}${title}</div>`;
    })
    .join('');
  const dots =
    list.length > 1
      ? `<div class="lm-carousel__dots">${list
          .map((_, index) => `<span class="lm-carousel__dot${index === 0 ? ' lm-carousel__dot--on' : ''}"></span>`)
          .join('')}</div>`
      : '';
  return `<div class="lm-carousel home__banners"><div class="lm-carousel__track">${slides}</div>${dots}</div>`;
}

function categories(list: HomePage['categories']): string {
  if (list.length === 0) return '';
  const rows: string[] = [];
  for (let start = 0; start < list.length; start += CATEGORIES_PER_ROW) {
    const cells = list
      .slice(start, start + CATEGORIES_PER_ROW)
      .map(
        (category) =>
          `<div class="home__category">${image('home__category-image', category.category_img, 'aspectfit')}` +
          `${text('home__category-name', category.category_name)}</div>`,
      )
      .join('');
    rows.push(`<div class="home__category-row">${cells}</div>`);
  }
  return `<div class="home__section">${text('home__section-title', TEXT.categories)}${rows.join('')}</div>`;
}

function listOf<T>(value: unknown): T[] {
  return Array.isArray(value) ? (value as T[]) : [];
}

/** The prerendered first screen of home for this data (the markup only). */
export function homeMarkup(home: Partial<HomePage>, logo: string): string {
  const bannerList = listOf<HomeBanner>(home.banners);
  const categoryList = listOf<HomePage['categories'][number]>(home.categories);
  const firstScreen =
    bannerList.length > 0 || categoryList.length > 0
      ? `<div>${banners(bannerList)}${categories(categoryList)}</div>`
      : '';
  return `<div id="${PRERENDER_ID}" class="lm-prerender"><div class="home">${header(logo)}${firstScreen}</div></div>`;
}

/** Where the app's start of the prerendered home is served (startScript below). */
export const START_SCRIPT_PATH = '/lm-start.js';

/**
 * The app's start on the prerendered home: the app's scripts, preloaded from <head> at the priority their `defer`
 * gave them, run once the first banner is on screen (loaded, decoded, then two frames), or after 3 s at most;
 * with no banner, after the first frame. As plain `defer` scripts they ran as soon as the document was parsed and
 * they had arrived, which on a fast connection was as often before the first paint as after it, and Lighthouse's
 * simulation then put their evaluation, four times slower, ahead of home's largest paint (LCP 2.05 s instead of
 * 1.5 s: README "Performance"). A hidden tab draws no frames: a timer starts the app there.
 */
export const START_SCRIPT = `(function () {
  var me = document.currentScript;
  var sources = ((me && me.getAttribute('data-scripts')) || '').split(' ').filter(Boolean);
  var started = false;
  function start() {
    if (started) return;
    started = true;
    sources.forEach(function (src) {
      var script = document.createElement('script');
      script.src = src;
      script.async = false;
      document.head.appendChild(script);
    });
  }
  // Two frames: the first draws the banner, and the second begins only once that one was presented.
  function afterNextFrame() {
    requestAnimationFrame(function () {
      requestAnimationFrame(function () { setTimeout(start, 0); });
    });
    setTimeout(start, 1000);
  }
  setTimeout(start, 3000);
  var banner = document.querySelector('#${PRERENDER_ID} img[fetchpriority="high"]');
  if (!banner) return afterNextFrame();
  var loaded = banner.complete ? Promise.resolve() : new Promise(function (resolve) {
    banner.addEventListener('load', resolve);
    banner.addEventListener('error', resolve);
  });
  loaded
    .then(function () { return banner.decode ? banner.decode().catch(function () {}) : undefined; })
    .then(afterNextFrame);
})();
`;

const DEFER_SCRIPT = /<script defer="defer" src="([^"]+)"><\/script>/g;

/** The build's `defer` scripts as preloads, and the start script that runs them (START_SCRIPT) in their place. */
function startAfterFirstScreen(html: string): string {
  const sources = [...html.matchAll(DEFER_SCRIPT)].map((match) => match[1]);
  if (sources.length === 0) return html;
  let left = sources.length;
  return html.replace(DEFER_SCRIPT, (_tag, src: string) => {
    const preload = `<link rel="preload" as="script" href="${escapeHtml(src)}" fetchpriority="low">`;
    left -= 1;
    if (left > 0) return preload;
    const start = `<script defer src="${START_SCRIPT_PATH}" data-scripts="${escapeHtml(sources.join(' '))}"></script>`;
    return `${preload}${start}`;
  });
}

/** index.html with the first screen, its data and the preload of its first banner written in. */
export function prerenderHome(indexHtml: string, home: Partial<HomePage>, logo: string): string | null {
  const mount = '<div id="app"></div>';
  if (!indexHtml.includes(mount) || !indexHtml.includes('</head>')) return null;
  const firstBanner = safeImageUrl(listOf<HomeBanner>(home.banners)[0]?.image);
  const preload = firstBanner
    ? `<link rel="preload" as="image" href="${escapeHtml(firstBanner)}" fetchpriority="high">`
    : '';
  const data = `<script type="application/json" id="${HOME_DATA_ID}">${jsonForScript(home)}</script>`;
  // The preload goes first in <head>, ahead of the scripts and the stylesheet.
  const withPreload = preload ? indexHtml.replace(/<head>/i, `<head>${preload}`) : indexHtml;
  return startAfterFirstScreen(withPreload).replace(mount, `${homeMarkup(home, logo)}${data}${mount}`);
}

interface Answer<T> {
  status: number;
  data: T;
}

async function answer<T>(app: FastifyInstance, url: string): Promise<T | null> {
  const response = await app.inject({ method: 'GET', url });
  if (response.statusCode !== 200) return null;
  try {
    const body = JSON.parse(response.body) as Answer<T>;
    return body.status === 200 ? body.data : null;
  } catch {
    return null;
  }
}

function send(request: FastifyRequest, reply: FastifyReply, html: string): FastifyReply {
  reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').header('vary', 'accept-encoding');
  const accepted = String(request.headers['accept-encoding'] ?? '');
  const body = Buffer.from(html, 'utf8');
  if (/\bbr\b/.test(accepted)) {
    const compressed = brotliCompressSync(body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } });
    return reply.header('content-encoding', 'br').send(compressed);
  }
  if (/\bgzip\b/.test(accepted)) return reply.header('content-encoding', 'gzip').send(gzipSync(body, { level: 6 }));
  return reply.send(body);
}

/**
 * Serves `/` and `/pages/index/index` with the prerendered first screen. index.html is read once, at start (as
 * the CSP's script hashes are: restart the server after a rebuild); the home data is asked of the API's own
 * route (app.inject), so it is exactly what the app would get.
 */
export function registerHomePrerender(app: FastifyInstance, h5Root: string): void {
  const indexPath = join(h5Root, 'index.html');
  if (!existsSync(indexPath)) return;
  const indexHtml = readFileSync(indexPath, 'utf8');
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const [home, config] = await Promise.all([
      answer<HomePage>(app, '/api/index/shop_mainpage'),
      answer<ShopConfig>(app, '/api/config/shop_config'),
    ]);
    const html = home ? prerenderHome(indexHtml, home, config?.shop_logo ?? '') : null;
    return send(request, reply, html ?? indexHtml);
  };
  for (const path of PRERENDERED_PATHS) app.get(path, handler);
  app.get(START_SCRIPT_PATH, (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(START_SCRIPT),
  );
}
