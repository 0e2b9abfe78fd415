import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import { registerProductionCheck } from '../production-mode';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  readonly kind: 'smtp' | 'outbox';
  send(message: MailMessage): Promise<void>;
}

/** Real delivery through an SMTP server (SMTP_URL, e.g. smtps://user:pass@smtp.example.com). */
export function smtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    kind: 'smtp',
    async send(message) {
      await transport.sendMail({ from, ...message });
    },
  };
}

/**
 * The offline default: each message becomes one JSON file in the outbox directory
 * (`<time>-<random>.json` with to, subject, text, sent_at), newest last when listed by name.
 */
export function outboxMailer(dir: string, now: () => number = Date.now): Mailer {
  return {
    kind: 'outbox',
    async send(message) {
      await mkdir(dir, { recursive: true });
      const time = now();
      const name = `${String(time).padStart(15, '0')}-${randomBytes(4).toString('hex')}.json`;
      const record = { ...message, sent_at: new Date(time).toISOString() };
      await writeFile(join(dir, name), `${JSON.stringify(record, null, 2)}\n`);
    },
  };
}

registerProductionCheck({
  id: 'mail.outbox',
  check({ config }) {
    if (!config || config.smtpUrl) return [];
    return [
      {
        name: 'SMTP_URL',
        reason: 'is not set: mail (password reset codes) would be written to the outbox folder, never delivered',
      },
    ];
  },
});
