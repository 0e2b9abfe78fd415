/**
 * A local fake of 17track's tracking API v2.2, as the shop's adapter (services/tracking.ts, seventeenTracker) calls
 * it: POST /track/v2.2/register and /track/v2.2/gettrackinfo with the `17token` header and a JSON array of numbers,
 * answering `{code: 0, data: {accepted: [...], rejected: [...]}}`; a number registered twice is rejected with
 * 17track's -18019901. `advance(number, event)` is the carrier's scan: it adds the event to the number's
 * `track_info` and, like 17track, POSTs a TRACKING_UPDATED notification to the webhook endpoint, signed in the
 * `sign` header with sha256(`${body}/${key}`).
 */
import { createHash } from 'node:crypto';
import { FakeServer, WebhookSender, json, randomId } from './http-kit';

export type SeventeenStage =
  | 'InfoReceived'
  | 'PickedUp'
  | 'InTransit'
  | 'OutForDelivery'
  | 'AvailableForPickup'
  | 'Delivered'
  | 'Exception';

export interface SeventeenScan {
  stage: SeventeenStage;
  description: string;
  location: string;
  /** ISO time; now when absent. */
  time?: string;
}

interface Parcel {
  number: string;
  carrier: number;
  events: Required<SeventeenScan>[];
}

export const ALREADY_REGISTERED = -18019901;
const NOT_REGISTERED = -18019902;

export function seventeenSign(body: string, key: string): string {
  return createHash('sha256').update(`${body}/${key}`).digest('hex');
}

export class SeventeenTrackFake {
  readonly server = new FakeServer();
  readonly webhooks = new WebhookSender();
  readonly parcels = new Map<string, Parcel>();
  /** Calls received, for the tests: path and numbers. */
  readonly calls: { path: string; numbers: string[] }[] = [];
  /** When set, every API call answers this HTTP status (an outage). */
  failWith: number | null = null;

  constructor(readonly key: string = randomId(16)) {
    const api = (path: string, handle: (items: any[]) => unknown) =>
      this.server.on('POST', `/track/v2.2/${path}`, (request) => {
        if (this.failWith) return json(this.failWith, { code: -1, data: null });
        if (request.headers['17token'] !== this.key) {
          return json(401, { code: 401, data: { errors: [{ code: -18010002, message: 'Invalid access key.' }] } });
        }
        let items: any[];
        try {
          items = JSON.parse(request.raw);
        } catch {
          return json(400, { code: -18010001, data: { errors: [{ code: -18010001, message: 'Invalid JSON.' }] } });
        }
        if (!Array.isArray(items) || items.length > 40) {
          return json(400, { code: -18010013, data: { errors: [{ code: -18010013, message: 'Max 40 numbers.' }] } });
        }
        this.calls.push({ path, numbers: items.map((item) => String(item?.number ?? '')) });
        return json(200, { code: 0, data: handle(items) });
      });
    api('register', (items) => {
      const accepted: unknown[] = [];
      const rejected: unknown[] = [];
      for (const item of items) {
        const number = String(item.number ?? '').toUpperCase();
        if (this.parcels.has(number)) {
          rejected.push({
            number,
            error: {
              code: ALREADY_REGISTERED,
              message: `The tracking number '${number}' has been registered, don't need to repeat registration.`,
            },
          });
          continue;
        }
        const carrier = Number(item.carrier) || 190271;
        this.parcels.set(number, { number, carrier, events: [] });
        accepted.push({ origin: 1, number, carrier });
      }
      return { accepted, rejected };
    });
    api('gettrackinfo', (items) => {
      const accepted: unknown[] = [];
      const rejected: unknown[] = [];
      for (const item of items) {
        const parcel = this.parcels.get(String(item.number ?? '').toUpperCase());
        if (!parcel) {
          rejected.push({
            number: item.number,
            error: { code: NOT_REGISTERED, message: `The tracking number '${item.number}' does not register.` },
          });
          continue;
        }
        accepted.push(this.view(parcel));
      }
      return { accepted, rejected };
    });
  }

  /** A parcel as 17track's v2.2 answers and notifications carry it. */
  view(parcel: Parcel) {
    const events = [...parcel.events].reverse().map((event) => ({
      time_iso: event.time,
      time_utc: event.time,
      description: event.description,
      location: event.location,
      stage: event.stage,
      sub_status: `${event.stage}_Other`,
    }));
    const latest = parcel.events.at(-1);
    return {
      number: parcel.number,
      carrier: parcel.carrier,
      tag: null,
      track_info: {
        latest_status: { status: latest?.stage ?? 'NotFound', sub_status: latest ? `${latest.stage}_Other` : null },
        latest_event: events[0] ?? null,
        tracking: {
          providers_hash: 0,
          providers: [{ provider: { key: parcel.carrier, name: 'Lensmate Post (fake)', country: 'CN' }, events }],
        },
      },
    };
  }

  /** The carrier scans the parcel: its track info grows and 17track notifies the webhook. */
  advance(number: string, scan: SeventeenScan): void {
    const parcel = this.parcels.get(number.toUpperCase());
    if (!parcel) throw new Error(`${number} is not registered with the fake 17track`);
    parcel.events.push({ ...scan, time: scan.time ?? new Date().toISOString() });
    const body = JSON.stringify({ event: 'TRACKING_UPDATED', data: this.view(parcel) });
    this.webhooks.send({
      id: randomId(8),
      type: 'TRACKING_UPDATED',
      body,
      headers: { 'content-type': 'application/json', sign: seventeenSign(body, this.key) },
    });
  }

  async start(host = '127.0.0.1'): Promise<void> {
    await this.server.listen(host);
  }

  get origin(): string {
    return this.server.origin;
  }

  /** The variables that point the shop at this fake. */
  get env(): Record<string, string> {
    return { SEVENTEEN_TRACK_KEY: this.key, SEVENTEEN_TRACK_URL: `${this.origin}/track/v2.2` };
  }

  async close(): Promise<void> {
    await this.webhooks.settled();
    await this.server.close();
  }
}
