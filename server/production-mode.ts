/**
 * Production mode: with NODE_ENV=production the server refuses to start while anything meant for development or a
 * demo is on (a sandbox provider, a default secret, a development switch), and its message names each one.
 *
 * One registry: every provider and every switch adds its own check next to its code (`registerProductionCheck` at
 * module load), so a new sandbox cannot be forgotten here. server/main.ts (and the standalone messaging server) run
 * every check before listening; nothing else reads NODE_ENV.
 */
import type { Kysely } from 'kysely';
import type { Env, ServerConfig } from './config';
import type { Database } from './db/schema';
import type { MessagingConfig } from './messaging/config';

/** One thing production refuses: what to change (a variable, an account) and why. */
export interface UnsafeSetting {
  /** What the operator changes: `PAYMENT_SANDBOX=1`, `STRIPE_SECRET_KEY`, `admin@lensmate.test` … */
  name: string;
  reason: string;
}

/** What a check may read: the environment, the configuration read from it, and the database when open. */
export interface ProductionSubject {
  env: Env;
  /** The shop's configuration; absent for the standalone messaging server. */
  config?: ServerConfig;
  messaging?: MessagingConfig | null;
  db?: Kysely<Database>;
}

export interface ProductionCheck {
  /** Unique per check (`payments.stripe`, `messaging.otp` …): registering the same id again replaces it. */
  id: string;
  check(subject: ProductionSubject): UnsafeSetting[] | Promise<UnsafeSetting[]>;
}

const checks = new Map<string, ProductionCheck>();

export function registerProductionCheck(check: ProductionCheck): void {
  checks.set(check.id, check);
}

/** The ids registered so far (for the tests that hold every sandbox to a refusal). */
export function productionCheckIds(): string[] {
  return [...checks.keys()];
}

export function isProduction(env: Env): boolean {
  return env.NODE_ENV === 'production';
}

/** Everything production would refuse in this configuration, whatever NODE_ENV says. */
export async function unsafeSettings(subject: ProductionSubject): Promise<UnsafeSetting[]> {
  const found: UnsafeSetting[] = [];
  for (const check of checks.values()) found.push(...(await check.check(subject)));
  return found;
}

export class ProductionRefused extends Error {
  constructor(readonly settings: UnsafeSetting[]) {
    super(
      `NODE_ENV=production refuses to start with ${settings.length} development or demo setting${
        settings.length === 1 ? '' : 's'
      } on:\n${settings.map((setting) => `  - ${setting.name}: ${setting.reason}`).join('\n')}`,
    );
  }
}

/** With NODE_ENV=production: throws ProductionRefused naming every unsafe setting; otherwise does nothing. */
export async function refuseUnsafeProduction(subject: ProductionSubject): Promise<void> {
  if (!isProduction(subject.env)) return;
  const settings = await unsafeSettings(subject);
  if (settings.length > 0) throw new ProductionRefused(settings);
}
