import type { Kysely } from 'kysely';
import type { ServerConfig } from './config';
import type { Dialect } from './db/connection';
import type { Database } from './db/schema';
import type { MessagingControl } from './messaging/control';
import type { FaceDetector } from './services/face-detector';
import type { Mailer } from './services/mail';
import type { PaymentProviders } from './services/payments';
import type { LimitCounters } from './services/rate-limit';
import type { Tracker } from './services/tracking';

/** What every route module gets: the database and the adapters chosen from the configuration. */
export interface AppContext {
  db: Kysely<Database>;
  dialect: Dialect;
  config: ServerConfig;
  mailer: Mailer;
  payments: PaymentProviders;
  tracker: Tracker;
  faces: FaceDetector;
  /** Rate-limit counters (per account, per client): in this process, or in Redis when REDIS_URL is set. */
  limits: LimitCounters;
  /** Revokes messaging identity proofs (logout, password change) and CS agents; shared with the messaging server. */
  messaging: MessagingControl;
  now: () => number;
}
