import type { FastifyInstance } from 'fastify';
import { requestToken, requireUser } from '../auth';
import type { AppContext } from '../context';
import { ok } from '../http';
import { OTP_TTL_MS, issueOtp, sessionRefOf } from '../messaging/otp';
import { tokenHash } from '../services/passwords';

/**
 * The messaging identity proof for the signed-in user: the messaging server accepts it at authorize, for
 * this user only, for five minutes, and never after this login ends (logout) or the password changes.
 */
export function registerMessagingTokenRoute(app: FastifyInstance, ctx: AppContext): void {
  app.post('/api/messaging/token', async (request) => {
    const user = await requireUser(ctx, request);
    const userId = String(user.id);
    const sessionRef = sessionRefOf(tokenHash(requestToken(request) ?? ''));
    return ok({ otp: issueOtp(userId, ctx.config.otpSecret, OTP_TTL_MS, Date.now(), sessionRef), userId });
  });
}
