import { type LaunchOptions, MiniProgram, MiniProgramError, type PendingModal } from './mini-program';
import { type RenderedElement, type RenderedNode, isText } from './wxml';

const WAIT_MS = Number(process.env.LENSMATE_WEAPP_WAIT_MS ?? 20_000);
const POLL_MS = 15;

export interface Match {
  /** false: the text may be part of a longer text. */
  whole?: boolean;
  /** Which of several matches (0 = the first on screen, -1 = the last). */
  nth?: number;
}

function isHidden(element: RenderedElement): boolean {
  const style = String(element.attrs.style ?? '');
  return /display\s*:\s*none/.test(style) || element.attrs.hidden === true;
}

function richText(nodes: unknown): string {
  if (typeof nodes === 'string') return nodes.replace(/<[^>]*>/g, ' ');
  if (!Array.isArray(nodes)) return '';
  return nodes
    .map((node: { type?: string; text?: string; children?: unknown }) =>
      node.type === 'text' ? (node.text ?? '') : richText(node.children),
    )
    .join('');
}

/** The text a user reads in a node: its texts, its rich text, the value or placeholder of its fields. */
export function textOf(node: RenderedNode): string {
  if (isText(node)) return node.text;
  if (isHidden(node)) return '';
  if (node.tag === 'rich-text') return richText(node.attrs.nodes);
  if (node.tag === 'input' || node.tag === 'textarea') return '';
  return node.children.map(textOf).join('');
}

const normalize = (text: string) => text.replace(/\s+/g, ' ').trim();

function* elements(nodes: RenderedNode[]): Generator<RenderedElement> {
  for (const node of nodes) {
    if (isText(node) || isHidden(node)) continue;
    yield node;
    yield* elements(node.children);
  }
}

function matches(text: string, wanted: string | RegExp, whole: boolean): boolean {
  const shown = normalize(text);
  if (typeof wanted !== 'string') return wanted.test(shown);
  return whole ? shown === wanted : shown.includes(wanted);
}

/**
 * A phone with the mini-program, driven as a user: it reads what the page on top renders and taps, types and
 * scrolls there. Every action first checks that the mini-program has not failed (uncaught error, missing global,
 * setData over the limit), and every wait polls for what the user would see.
 */
/** A field's identity across renders: Taro gives every element an id; a hand-written page may not. */
function fieldKey(field: RenderedElement): string {
  return typeof field.attrs.id === 'string' && field.attrs.id !== '' ? `#${field.attrs.id}` : field.place;
}

export class Phone {
  readonly program: MiniProgram;
  /** What the user typed into each field (a native field keeps it when the page does not set a value). */
  private readonly typed = new Map<string, string>();

  constructor(options: LaunchOptions) {
    this.program = new MiniProgram(options);
  }

  /** Launches and waits for the first page's first render. */
  async launch(path?: string, query?: Record<string, string>): Promise<void> {
    this.program.launch(path, query);
    await this.until('the first page to render', () => this.program.firstRenderAfterMs !== null);
  }

  close(): void {
    this.program.close();
  }

  get route(): string {
    return this.program.currentRoute();
  }

  get query(): Record<string, string> {
    return this.program.top()?.query ?? {};
  }

  /** The lines of text on screen (for failure messages). */
  screenText(): string {
    const lines: string[] = [];
    const walk = (nodes: RenderedNode[]) => {
      for (const node of nodes) {
        if (isText(node)) continue;
        if (isHidden(node)) continue;
        const direct = normalize(node.children.map((child) => (isText(child) ? child.text : '')).join(''));
        if (direct) lines.push(direct);
        if (node.tag === 'input' || node.tag === 'textarea') {
          lines.push(`[${node.attrs.value || node.attrs.placeholder || node.attrs.name || node.tag}]`);
        }
        walk(node.children);
      }
    };
    walk(this.program.screen());
    return lines.join(' | ');
  }

  /** Polls until `check` holds; fails at once when the mini-program fails, and after the wait with the screen. */
  async until<T>(what: string, check: () => T | undefined | null | false, timeoutMs = WAIT_MS): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      this.program.assertHealthy();
      const result = check();
      if (result) return result;
      if (Date.now() > deadline) {
        throw new MiniProgramError(
          `waited ${timeoutMs} ms for ${what} on ${this.route || 'no page'}; the screen shows:\n${this.screenText()}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  /** Elements whose whole text (or part of it) is `text`, innermost first in screen order. */
  findAll(text: string | RegExp, { whole = true }: Match = {}): RenderedElement[] {
    const found: RenderedElement[] = [];
    for (const element of elements(this.program.screen())) {
      if (!matches(textOf(element), text, whole)) continue;
      const inner = element.children.some(
        (child) => !isText(child) && !isHidden(child) && matches(textOf(child), text, whole),
      );
      if (!inner) found.push(element);
    }
    return found;
  }

  private choose(found: RenderedElement[], nth = 0): RenderedElement | undefined {
    return nth < 0 ? found[found.length + nth] : found[nth];
  }

  async see(text: string | RegExp, match: Match = {}): Promise<RenderedElement> {
    return this.until(`"${text}"`, () => this.choose(this.findAll(text, match), match.nth));
  }

  /** True when `text` is on screen now. */
  shows(text: string | RegExp, match: Match = {}): boolean {
    this.program.assertHealthy();
    return this.findAll(text, match).length > 0;
  }

  async waitForPage(route: string, query: Record<string, string> = {}): Promise<void> {
    await this.until(
      `page ${route}`,
      () =>
        this.route === route &&
        Object.entries(query).every(([key, value]) => this.query[key] === value) &&
        this.program.screen().length > 0,
    );
  }

  /** True while WeChat's loading toast or loading dialog covers the page. */
  get loading(): boolean {
    return this.program.loadingShown !== null || this.program.toastShown?.icon === 'loading';
  }

  /**
   * Taps what shows `text` once the page has stopped loading (as a user waits for the loading toast to go): a
   * touch start and end, then the tap, bubbling as WeChat's do.
   */
  async tap(text: string | RegExp, match: Match = {}): Promise<void> {
    await this.until('the loading toast to go', () => !this.loading);
    const target = await this.see(text, match);
    this.tapElement(target);
  }

  tapElement(target: RenderedElement): void {
    this.program.dispatch(target, 'touchstart');
    this.program.dispatch(target, 'touchend');
    this.program.dispatch(target, 'tap', { x: 10, y: 10 });
    this.program.assertHealthy();
  }

  /**
   * A field found by its placeholder, its name or the text of the label before it; a list of texts finds the
   * field after the last of them, passed in order (`['Left eye (OS)', 'SPH']`).
   */
  async field(label: string | string[]): Promise<RenderedElement> {
    const path = typeof label === 'string' ? [label] : label;
    return this.until(`a field "${path.join(' › ')}"`, () => {
      if (path.length > 1) return this.fieldAfter(path);
      const fields = [...elements(this.program.screen())].filter(
        (element) => element.tag === 'input' || element.tag === 'textarea',
      );
      return (
        fields.find((element) => element.attrs.placeholder === label) ??
        fields.find((element) => element.attrs.name === label) ??
        this.fieldAfter(path)
      );
    });
  }

  /**
   * Types into a field key by key (focus, one input event per character, blur), after clearing it. The native
   * field keeps what was typed; a value the page sets (a formatted card number) replaces it, as in WeChat.
   */
  async type(label: string | string[], text: string): Promise<void> {
    const field = await this.field(label);
    const key = fieldKey(field);
    let value = this.shownValue(field);
    this.program.dispatch(field, 'focus', { value, height: 0 });
    if (value !== '') {
      value = '';
      this.program.dispatch(field, 'input', { value, cursor: 0, keyCode: 8 });
    }
    for (const character of text) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      const now = this.fieldByKey(key) ?? field;
      const controlled = now.attrs.value;
      if (typeof controlled === 'string' && controlled !== '') value = controlled;
      value += character;
      this.typed.set(key, value);
      this.program.dispatch(now, 'input', { value, cursor: value.length, keyCode: character.charCodeAt(0) });
      this.program.assertHealthy();
    }
    await new Promise((resolve) => setTimeout(resolve, 0));
    this.program.dispatch(this.fieldByKey(key) ?? field, 'blur', { value, cursor: value.length });
    this.program.assertHealthy();
  }

  /** What a field shows: the value the page gives it, else what was typed into it. */
  private shownValue(field: RenderedElement): string {
    const controlled = field.attrs.value;
    if (typeof controlled === 'string' && controlled !== '') return controlled;
    return this.typed.get(fieldKey(field)) ?? '';
  }

  /** The first field after the texts of `path`, in screen order (a form's labels above or beside its field). */
  private fieldAfter(path: string[]): RenderedElement | undefined {
    let passed = 0;
    for (const element of elements(this.program.screen())) {
      if (passed < path.length) {
        const label = path[passed];
        const isLabel =
          normalize(textOf(element)) === label &&
          !element.children.some((child) => !isText(child) && normalize(textOf(child)) === label);
        if (isLabel) passed += 1;
      } else if (element.tag === 'input' || element.tag === 'textarea') {
        return element;
      }
    }
    return undefined;
  }

  private fieldByKey(key: string): RenderedElement | undefined {
    return [...elements(this.program.screen())].find(
      (element) => (element.tag === 'input' || element.tag === 'textarea') && fieldKey(element) === key,
    );
  }

  /** The value a field shows now. */
  async valueOf(label: string | string[]): Promise<string> {
    return this.shownValue(await this.field(label));
  }

  /** Presses the keyboard's confirm key in a field. */
  async confirm(label: string | string[]): Promise<void> {
    const field = await this.field(label);
    this.program.dispatch(field, 'confirm', { value: this.shownValue(field) });
    this.program.assertHealthy();
  }

  /** Scrolls to the bottom: the page's onReachBottom, and every scroll-view's scrolltolower. */
  async scrollToBottom(): Promise<void> {
    for (const element of elements(this.program.screen())) {
      if (element.tag === 'scroll-view') this.program.dispatch(element, 'scrolltolower', { direction: 'bottom' });
    }
    this.program.pageEvent('onReachBottom');
    this.program.assertHealthy();
  }

  /** Picks in a picker (the native wheel): `index` of its range. */
  async pick(text: string | RegExp, index: number): Promise<void> {
    const target = await this.see(text);
    let node: RenderedElement | null = target;
    while (node && node.tag !== 'picker') node = node.parent;
    if (!node) throw new MiniProgramError(`"${text}" is not inside a picker`);
    this.program.dispatch(node, 'change', { value: index });
    this.program.assertHealthy();
  }

  /** WeChat's back button in the navigation bar: the page on top closes. */
  async back(): Promise<void> {
    const refused = this.program.navigateBack(1);
    if (refused) throw new MiniProgramError(`no back button on the first page: ${refused}`);
    this.program.assertHealthy();
  }

  /** Waits for WeChat's modal dialog and answers it. */
  async answerModal(confirm: boolean, match?: string | RegExp): Promise<PendingModal> {
    const modal = await this.until(`a modal${match ? ` "${match}"` : ''}`, () =>
      this.program.modals.find(
        (pending) =>
          !match ||
          (typeof match === 'string'
            ? `${pending.title} ${pending.content}`.includes(match)
            : match.test(`${pending.title} ${pending.content}`)),
      ),
    );
    modal.answer(confirm);
    return modal;
  }

  /** Waits for a toast showing `text` (any toast shown since launch). */
  async toast(text: string | RegExp): Promise<void> {
    await this.until(`a toast "${text}"`, () =>
      this.program.toasts.some((toast) => (typeof text === 'string' ? toast.title === text : text.test(toast.title))),
    );
  }

  /** Hands a video to the next chooseVideo, with the frame WeChat takes of it (`poster`, a JPEG of that size). */
  pickVideo(video: string, poster: { path: string; width: number; height: number }): void {
    this.program.mediaToPick.push(video);
    this.program.videoPosters.set(video, poster);
  }

  /** Elements of a tag on screen, in screen order. */
  elementsTagged(tag: string): RenderedElement[] {
    const found: RenderedElement[] = [];
    const walk = (nodes: RenderedNode[]) => {
      for (const node of nodes) {
        if (isText(node)) continue;
        if (node.tag === tag) found.push(node);
        walk(node.children);
      }
    };
    walk(this.program.screen());
    return found;
  }

  /** Hands these fixture files to the next chooseImage/chooseMedia, as the user's picks. */
  pickMedia(...files: string[]): void {
    this.program.mediaToPick.push(...files);
  }
}
