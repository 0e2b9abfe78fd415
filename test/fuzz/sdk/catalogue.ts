import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..');
export const SPEC_PATH = '/work/shared/spec/messaging.md';
/** The unmodified GoEasy 2.8.3 client: the SDK keeps its wording where the spec states a rule but quotes none. */
export const GOEASY_CLIENT = join(root, 'node_modules/goeasy/goeasy.esm.min.js');

function section(text: string, heading: string): string {
  const start = text.indexOf(heading);
  if (start < 0) throw new Error(`messaging.md has no "${heading}"`);
  const end = text.indexOf('\n## ', start + heading.length);
  return text.slice(start, end < 0 ? undefined : end);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Every message quoted in messaging.md §5 (validation rules) and §8 (error catalogue), verbatim. */
export function specMessages(): string[] {
  const spec = readFileSync(SPEC_PATH, 'utf8');
  const quoted = [section(spec, '## 5. Validation rules'), section(spec, '## 8. The error catalogue')].flatMap((part) =>
    [...part.matchAll(/"([^"\n]+)"/g)].map((match) => match[1]),
  );
  return [...new Set(quoted)];
}

/**
 * A spec message as a pattern: its placeholders (X for a field name, [i] for an index, 'status' for a status)
 * stand for any value; everything else must match letter for letter.
 */
function specPattern(message: string): RegExp {
  const source = escapeRegExp(message)
    .replace(/\\\[i\\\]/g, '\\[\\d+\\]')
    .replace(/'status'/g, "'[a-z]+'")
    .replace(/(^|\s|\\\[)X(?=$|\s|\\\.)/g, '$1[A-Za-z_.]+')
    .replace(/channel\\\[X\\\]/g, 'channel\\[.*\\]');
  return new RegExp(`^${source}$`);
}

/**
 * Messages whose wording comes from the GoEasy 2.8.3 client for rules that §5 states without quoting (the module
 * guard, notification and template fields, file types, ...). `{}` is a field name, number or value filled in at
 * run time; every literal part is checked against the client's own text (see the suite).
 */
export const CLIENT_TEMPLATES = [
  'options is require an object.',
  "Invalid options:'appkey' is empty.",
  "Invalid options:'host' is empty.",
  "Invalid options: 'modules' must be nonempty array",
  "Invalid options: module '{}' is not support",
  "Invalid options: module '{}' is not enabled",
  'bad parameters',
  'TypeError: data requires an object.',
  'TypeError: wxmpId requires an object.',
  'TypeError: {} require string or number.',
  'TypeError: {} require array.',
  '{} is over max length 500.',
  'TypeError: {} item require string or number.',
  'channel is required.',
  'Subscription failed. presence.enable must be a boolean',
  'Subscription Presence failed. onPresence callback function is required',
  'TypeError: notification requires an object.',
  'notification.{} must be a string of no more than {} characters',
  'notification.sound must be a string',
  'notification.badge must be a string',
  'notification.vendorOptions.{}.{} require a {}',
  'wxmpTemplateMsg must be an object.',
  'template_id must be string.',
  'url must be string',
  'miniprogram.appid and miniprogram.pagepath must be strings.',
  'data requires an object.',
  'message is required.',
  'TypeError: message requires string.',
  'Qos must be 0 or 1.',
  'it is an empty message.',
  'text is empty',
  'TypeError: text requires string.',
  'file is empty.',
  'wrong file type.',
  'message-length limit 30mib',
  'Only {} is supported {}.',
  'type is empty.',
  'type require a string',
  'payload is empty.',
  'payload require object | string | number.',
  'message require property to.',
  'TypeError: to requires an object.',
  'TypeError: to.data requires an object.',
  'message require property to.type',
  'message require property to.id',
  'to.id should be a string or number.',
  'to.id can not be the same as your id.',
  'messages requires non empty array',
  'The maximum number of messages is 20',
  'message[{}] is not a correct message',
  'each message must be from the same friend or group',
  "message[{}] is '{}' and cannot be deleted",
  'Incorrect conversation object.',
  'incorrect type, must be: {}',
  'If type is not empty, id is required.',
  'incorrect query options.',
  '{} could not be empty.',
  'top must be boolean.',
  'agentData and teamData require an object',
  'customer data must be non-empty object.',
] as const;

export function templatePattern(template: string): RegExp {
  return new RegExp(`^${template.split('{}').map(escapeRegExp).join('.+?')}$`);
}

export interface Catalogue {
  spec: string[];
  accepts(content: string): boolean;
}

export function catalogue(): Catalogue {
  const spec = specMessages();
  const patterns = [...spec.map(specPattern), ...CLIENT_TEMPLATES.map(templatePattern)];
  return { spec, accepts: (content) => patterns.some((pattern) => pattern.test(content)) };
}
