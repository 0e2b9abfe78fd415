import type { FastifyInstance } from 'fastify';
import { requireUser } from '../auth';
import type { AppContext } from '../context';
import { ok } from '../http';
import { issueOtp } from '../messaging/otp';

/** The messaging identity proof for the signed-in user: the messaging server accepts it at authorize. */
export function registerMessagingTokenRoute(app: FastifyInstance, ctx: AppContext): void {
  app.post('/api/messaging/token', async (request) => {
    const user = await requireUser(ctx, request);
    const userId = String(user.id);
    return ok({ otp: issueOtp(userId, ctx.config.otpSecret), userId });
  });
}
