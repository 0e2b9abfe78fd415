import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import vm from 'node:vm';

/**
 * WeChat's view layer, as far as a test needs it: parses the built WXML (base.wxml, each page's and component's
 * .wxml, the .wxs modules they load) and renders it against a page's or component's data, the way WeChat's view
 * does. Taro's build sends a node tree through setData and base.wxml turns it into native components; rendering
 * base.wxml itself (rather than reading Taro's tree directly) means a node the templates cannot draw is not on
 * screen here either.
 */

export interface TemplateNode {
  kind: 'element';
  tag: string;
  attrs: Record<string, string>;
  children: ParsedNode[];
}
export type ParsedNode = TemplateNode | { kind: 'text'; text: string };

/** One event binding of a rendered element (`bindtap="eh"`, `catch:input="x"`). */
export interface Binding {
  method: string;
  capture: boolean;
  catches: boolean;
}

export interface Owner {
  /** The page or component instance whose methods this element's bindings call. */
  instance: Record<string, unknown>;
  label: string;
}

export interface RenderedElement {
  tag: string;
  /** Where the element sits in the view's templates: the same element keeps it from one render to the next. */
  place: string;
  attrs: Record<string, unknown>;
  dataset: Record<string, unknown>;
  bindings: Map<string, Binding>;
  children: RenderedNode[];
  parent: RenderedElement | null;
  owner: Owner;
}
export interface RenderedText {
  tag: '#text';
  text: string;
  parent: RenderedElement | null;
}
export type RenderedNode = RenderedElement | RenderedText;

export function isText(node: RenderedNode): node is RenderedText {
  return node.tag === '#text';
}

/** A custom component found while rendering: the caller instantiates it (once per place) and renders its view. */
export type ComponentResolver = (
  owner: Owner,
  tag: string,
  componentPath: string,
  properties: Record<string, unknown>,
  place: string,
) => { view: WxmlFile; data: Record<string, unknown>; owner: Owner };

export function parseWxml(source: string, file: string): ParsedNode[] {
  const root: TemplateNode = { kind: 'element', tag: '#root', attrs: {}, children: [] };
  const stack: TemplateNode[] = [root];
  let at = 0;
  const fail = (why: string): never => {
    throw new Error(`${file}: ${why} at offset ${at}`);
  };
  while (at < source.length) {
    if (source.startsWith('<!--', at)) {
      const end = source.indexOf('-->', at);
      at = end < 0 ? source.length : end + 3;
      continue;
    }
    if (source.startsWith('</', at)) {
      const end = source.indexOf('>', at);
      const tag = source.slice(at + 2, end).trim();
      const open = stack.pop();
      if (!open || open.tag !== tag) fail(`</${tag}> closes <${open?.tag}>`);
      at = end + 1;
      continue;
    }
    if (source[at] === '<') {
      const nameMatch = /^<([a-zA-Z][\w:-]*)/.exec(source.slice(at, at + 100));
      if (!nameMatch) fail('a tag without a name');
      const tag = (nameMatch as RegExpExecArray)[1];
      at += (nameMatch as RegExpExecArray)[0].length;
      const attrs: Record<string, string> = {};
      let selfClosing = false;
      for (;;) {
        while (/\s/.test(source[at] ?? '')) at += 1;
        if (source.startsWith('/>', at)) {
          selfClosing = true;
          at += 2;
          break;
        }
        if (source[at] === '>') {
          at += 1;
          break;
        }
        const attr = /^([^\s=/>]+)/.exec(source.slice(at, at + 200));
        if (!attr) fail(`a broken attribute in <${tag}>`);
        const name = (attr as RegExpExecArray)[1];
        at += name.length;
        while (/\s/.test(source[at] ?? '')) at += 1;
        if (source[at] !== '=') {
          attrs[name] = '';
          continue;
        }
        at += 1;
        while (/\s/.test(source[at] ?? '')) at += 1;
        const quote = source[at];
        if (quote !== '"' && quote !== "'") fail(`an unquoted value of ${name}`);
        const end = source.indexOf(quote, at + 1);
        attrs[name] = source.slice(at + 1, end);
        at = end + 1;
      }
      const element: TemplateNode = { kind: 'element', tag, attrs, children: [] };
      stack[stack.length - 1].children.push(element);
      if (tag === 'wxs' && !selfClosing) {
        const end = source.indexOf('</wxs>', at);
        element.children.push({ kind: 'text', text: source.slice(at, end) });
        at = end + '</wxs>'.length;
        continue;
      }
      if (!selfClosing) stack.push(element);
      continue;
    }
    const next = source.indexOf('<', at);
    const text = source.slice(at, next < 0 ? source.length : next);
    if (text.trim()) stack[stack.length - 1].children.push({ kind: 'text', text });
    at = next < 0 ? source.length : next;
  }
  if (stack.length !== 1) fail(`<${stack[stack.length - 1].tag}> is never closed`);
  return root.children;
}

/** A .wxs module, run in a context of its own as WeChat runs WXS apart from the app's JavaScript. */
function loadWxs(code: string, file: string): unknown {
  const context = vm.createContext({}, { codeGeneration: { strings: false, wasm: false } });
  const module = { exports: {} as unknown };
  const run = new vm.Script(`(function (module, exports) {${code}\n})`, { filename: file }).runInContext(context);
  run(module, module.exports);
  return module.exports;
}

const compiled = new Map<string, (scope: object) => unknown>();

/**
 * WXML reads a member of undefined or null as undefined instead of throwing (`{{root.cn}}` before the data
 * arrives renders nothing): member access becomes optional chaining, outside string literals.
 */
export function lenient(expression: string): string {
  let out = '';
  let quote: string | null = null;
  for (let at = 0; at < expression.length; at += 1) {
    const char = expression[at];
    if (quote) {
      out += char;
      if (char === '\\') {
        out += expression[at + 1] ?? '';
        at += 1;
      } else if (char === quote) {
        quote = null;
      }
      continue;
    }
    if (char === "'" || char === '"') quote = char;
    const before = out[out.length - 1] ?? '';
    const afterValue = /[\w$)\]]/.test(before) && !/^\d+$/.test(/[\w$]*$/.exec(out)?.[0] ?? '');
    if (char === '.' && afterValue && /[A-Za-z_$]/.test(expression[at + 1] ?? '')) {
      out += '?.';
    } else if (char === '[' && afterValue) {
      out += '?.[';
    } else {
      out += char;
    }
  }
  return out;
}

/** A WXML expression (the inside of `{{ }}`) evaluated against the template's data, missing names as undefined. */
function evaluate(expression: string, scope: Record<string, unknown>): unknown {
  let run = compiled.get(expression);
  if (!run) {
    run = new Function('__scope', `with (__scope) { return (${lenient(expression)}); }`) as (scope: object) => unknown;
    compiled.set(expression, run);
  }
  const view = new Proxy(scope, {
    has: (_target, key) => key !== '__scope',
    get: (target, key) => (key === Symbol.unscopables ? undefined : target[key as string]),
  });
  return run(view);
}

const MUSTACHE = /\{\{([\s\S]*?)\}\}/g;

function interpolate(value: string, scope: Record<string, unknown>, asObject = false): unknown {
  const whole = /^\s*\{\{([\s\S]*)\}\}\s*$/.exec(value);
  if (whole && !whole[1].includes('}}')) {
    return evaluate(asObject ? `{${whole[1]}}` : whole[1], scope);
  }
  if (!value.includes('{{')) return value;
  return value.replace(MUSTACHE, (_match, expression: string) => {
    const result = evaluate(expression, scope);
    return result === undefined || result === null ? '' : String(result);
  });
}

function parseBinding(name: string): { event: string; binding: Omit<Binding, 'method'> } | null {
  const match = /^(capture-bind|capture-catch|mut-bind|bind|catch):?(.+)$/.exec(name);
  if (!match) return null;
  return {
    event: match[2],
    binding: { capture: match[1].startsWith('capture'), catches: match[1].endsWith('catch') },
  };
}

function datasetKey(name: string): string {
  return name.slice(5).replace(/-([a-z])/g, (_match, letter: string) => letter.toUpperCase());
}

/** One .wxml file with its templates, its imports' templates and its wxs modules. */
export class WxmlFile {
  readonly templates = new Map<string, TemplateNode>();
  readonly modules: Record<string, unknown> = {};
  readonly body: ParsedNode[] = [];
  readonly usingComponents: Record<string, string>;

  constructor(
    readonly root: string,
    readonly path: string,
    load: (path: string) => WxmlFile,
    usingComponents: Record<string, string> = {},
  ) {
    this.usingComponents = usingComponents;
    const file = join(root, path);
    for (const node of parseWxml(readFileSync(file, 'utf8'), path)) {
      if (node.kind !== 'element') continue;
      if (node.tag === 'import') {
        const imported = load(this.resolve(node.attrs.src));
        for (const [name, template] of imported.templates) this.templates.set(name, template);
        Object.assign(this.modules, imported.modules);
      } else if (node.tag === 'template' && node.attrs.name) {
        this.templates.set(node.attrs.name, node);
      } else if (node.tag === 'wxs') {
        const src = node.attrs.src;
        const code = src
          ? readFileSync(join(root, this.resolve(src)), 'utf8')
          : node.children.map((child) => (child.kind === 'text' ? child.text : '')).join('');
        this.modules[node.attrs.module] = loadWxs(code, src ? this.resolve(src) : path);
      } else if (node.tag === 'include') {
        this.body.push(...load(this.resolve(node.attrs.src)).body);
      } else {
        this.body.push(node);
      }
    }
  }

  resolve(src: string): string {
    const target = src.startsWith('/') ? src.slice(1) : relative(this.root, join(this.root, dirname(this.path), src));
    return target.endsWith('.wxml') || target.endsWith('.wxs') ? target : `${target}.wxml`;
  }
}

/** Renders one page's or component's view against its data. */
export class Renderer {
  constructor(
    private readonly resolveComponent: ComponentResolver,
    private readonly componentRoot: (file: WxmlFile, tag: string) => string | undefined,
  ) {}

  render(file: WxmlFile, data: Record<string, unknown>, owner: Owner, place = ''): RenderedNode[] {
    const scope = { ...data, ...file.modules };
    return this.renderNodes(file, file.body, scope, owner, null, place);
  }

  private renderNodes(
    file: WxmlFile,
    nodes: ParsedNode[],
    scope: Record<string, unknown>,
    owner: Owner,
    parent: RenderedElement | null,
    place: string,
  ): RenderedNode[] {
    const out: RenderedNode[] = [];
    let previousCondition: boolean | null = null;
    nodes.forEach((node, index) => {
      if (node.kind === 'text') {
        const text = String(interpolate(node.text, scope) ?? '');
        if (text) out.push({ tag: '#text', text, parent });
        previousCondition = null;
        return;
      }
      const attrs = node.attrs;
      if ('wx:if' in attrs) {
        previousCondition = Boolean(interpolate(attrs['wx:if'], scope));
        if (!previousCondition) return;
      } else if ('wx:elif' in attrs) {
        if (previousCondition !== false) return;
        previousCondition = Boolean(interpolate(attrs['wx:elif'], scope));
        if (!previousCondition) return;
      } else if ('wx:else' in attrs) {
        if (previousCondition !== false) return;
        previousCondition = null;
      } else {
        previousCondition = null;
      }
      if ('wx:for' in attrs || 'wx:for-items' in attrs) {
        const list = interpolate(attrs['wx:for'] ?? attrs['wx:for-items'], scope);
        const itemName = attrs['wx:for-item'] ?? 'item';
        const indexName = attrs['wx:for-index'] ?? 'index';
        const entries: [unknown, unknown][] = Array.isArray(list)
          ? list.map((item, at) => [at, item])
          : typeof list === 'number'
            ? Array.from({ length: list }, (_unused, at) => [at, at])
            : typeof list === 'string'
              ? [...list].map((item, at) => [at, item])
              : list && typeof list === 'object'
                ? Object.entries(list)
                : [];
        for (const [key, item] of entries) {
          const itemScope = { ...scope, [itemName]: item, [indexName]: key };
          out.push(...this.renderOne(file, node, itemScope, owner, parent, `${place}/${index}.${String(key)}`));
        }
        return;
      }
      out.push(...this.renderOne(file, node, scope, owner, parent, `${place}/${index}`));
    });
    return out;
  }

  private renderOne(
    file: WxmlFile,
    node: TemplateNode,
    scope: Record<string, unknown>,
    owner: Owner,
    parent: RenderedElement | null,
    place: string,
  ): RenderedNode[] {
    if (node.tag === 'block') return this.renderNodes(file, node.children, scope, owner, parent, place);
    if (node.tag === 'template') {
      const name = String(interpolate(node.attrs.is ?? '', scope));
      const template = file.templates.get(name);
      if (!template) throw new Error(`${file.path}: no template named "${name}"`);
      const data = node.attrs.data ? (interpolate(node.attrs.data, scope, true) as Record<string, unknown>) : {};
      // A template sees only its data and the wxs modules of the file that defines it.
      return this.renderNodes(file, template.children, { ...data, ...file.modules }, owner, parent, place);
    }
    const attrs: Record<string, unknown> = {};
    const dataset: Record<string, unknown> = {};
    const bindings = new Map<string, Binding>();
    for (const [name, raw] of Object.entries(node.attrs)) {
      if (name.startsWith('wx:')) continue;
      const bound = parseBinding(name);
      if (bound) {
        bindings.set(`${bound.binding.capture ? 'capture:' : ''}${bound.event}`, {
          ...bound.binding,
          method: String(interpolate(raw, scope)),
        });
        continue;
      }
      const value = interpolate(raw, scope);
      if (name.startsWith('data-')) dataset[datasetKey(name)] = value;
      attrs[name] = value;
    }
    const element: RenderedElement = { tag: node.tag, place, attrs, dataset, bindings, children: [], parent, owner };
    const componentPath = this.componentRoot(file, node.tag);
    if (componentPath) {
      const component = this.resolveComponent(owner, node.tag, componentPath, attrs, place);
      element.children = this.render(component.view, component.data, component.owner, place).map((child) => {
        child.parent = element;
        return child;
      });
      return [element];
    }
    element.children = this.renderNodes(file, node.children, scope, owner, element, place);
    return [element];
  }
}
