/** Parcel tracking (17track, or the offline carrier that stands in for it). */
import { z } from 'zod';
import { TRACK_STATUSES } from '../constants';

export const trackStatus = z.enum(TRACK_STATUSES);

export const trackRequest = z.object({
  tracking_no: z
    .string({ required_error: 'is required' })
    .trim()
    .regex(/^[A-Za-z0-9-]{6,40}$/, 'must be 6 to 40 letters, digits or dashes'),
  carrier: z.string().trim().max(60).optional(),
});

export const trackEvent = z.object({
  time: z.number(),
  location: z.string(),
  description: z.string(),
  status: trackStatus,
});

export const tracking = z.object({
  tracking_no: z.string(),
  carrier: z.string(),
  status: trackStatus,
  events: z.array(trackEvent),
});

export const trackRegistered = z.object({ registered: z.literal(true), tracking_no: z.string() });

/** 17track's notification (API v2.2): its fields are read by the server from the verified raw body. */
export const seventeenTrackWebhook = z.object({ event: z.string(), data: z.unknown() }).passthrough();

export const trackWebhookReceived = z.object({
  received: z.literal(true),
  /** The notification moved an order to delivered. */
  delivered: z.boolean(),
});
