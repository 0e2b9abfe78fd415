/** The try-on tools, the messaging identity proof and the customer-service agents. */
import { z } from 'zod';
import { email } from './account';
import { id } from './common';

export const faceDetectRequest = z.object({
  /** Raw base64 or a data: URL of a jpg, png or webp image. */
  image_base64: z.string({ required_error: 'is required' }).min(1, 'is required'),
});

const point = z.object({ x: z.number(), y: z.number() });
/** In image pixels; `left_eye` is the eye on the image's left (the person's right eye). */
export const detectedFace = z.object({
  box: z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() }),
  left_eye: point,
  right_eye: point,
  score: z.number(),
});
export const faceDetectResult = z.object({ faces: z.array(detectedFace) });

export const tryOnImageRequest = z.object({
  file_name: z.string({ required_error: 'is required' }).trim().min(1, 'is required').max(200),
  /** Raw base64 or a data: URL of a jpg, png or webp image. */
  image_base64: z.string({ required_error: 'is required' }).min(1, 'is required'),
});

export const messagingToken = z.object({
  otp: z.string(),
  userId: z.string(),
  /** The user's WeChat identity in the mini-program (signed in with WeChat): the SDK connects with it as wxmpId. */
  wxmpId: z.object({ appid: z.string(), openid: z.string() }).nullable(),
  /**
   * The WeChat template that chat messages carry for receivers who are offline (the first of
   * MESSAGING_WXMP_TEMPLATE_IDS) and the mini-program its page path opens; null when none is configured.
   */
  wxmpTemplate: z.object({ templateId: z.string(), appid: z.string() }).nullable(),
});

const teamId = z
  .string({ required_error: 'is required' })
  .regex(/^[A-Za-z0-9_.@-]{1,60}$/, 'must be 1 to 60 letters, digits, _ - . or @');

/** A user the shop made an agent of a customer-service team (admin only). */
export const csAgent = z.object({
  user_id: z.number(),
  email: z.string(),
  nickname: z.string(),
  avatar: z.string(),
  /** Online for the team on the messaging server now. */
  online: z.boolean(),
  assigned_at: z.number(),
});

export const teamRequest = z.object({ team_id: teamId });
export const assignAgentRequest = z.object({ team_id: teamId, email });
export const removeAgentRequest = z.object({ team_id: teamId, user_id: id });
