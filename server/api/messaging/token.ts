import type { FastifyInstance } from 'fastify';
import { requestToken } from '../../auth';
import type { AppContext } from '../../context';
import { OTP_TTL_MS, issueOtp, sessionRefOf } from '../../messaging/otp';
import { tokenHash } from '../../services/passwords';
import { wxmpIdOf } from '../../services/wechat-login';
import { routeGroup } from '../route';

/**
 * The messaging identity proof for the signed-in user: the messaging server accepts it at authorize, for
 * this user only, for five minutes, and never after this login ends (logout) or the password changes.
 */
/** The template chat messages carry for offline receivers: the first allowed one, opening the mini-program. */
function chatTemplate(ctx: AppContext): { templateId: string; appid: string } | null {
  const templateId = ctx.config.messaging?.wechat.templateIds[0];
  const appid = ctx.config.weapp?.appid;
  return templateId && appid ? { templateId, appid } : null;
}

export function registerMessagingTokenRoute(app: FastifyInstance, ctx: AppContext): void {
  routeGroup(app, ctx, { access: 'user', tag: 'messaging' }, (group) => {
    group.route('POST /api/messaging/token', async ({ user, request }) => {
      const userId = String(user.id);
      const sessionRef = sessionRefOf(tokenHash(requestToken(request) ?? ''));
      const wxmpId = await wxmpIdOf(ctx, user.id);
      const wxmp = wxmpId ? `${wxmpId.appid}:${wxmpId.openid}` : '';
      return {
        otp: issueOtp(userId, ctx.config.otpSecret, OTP_TTL_MS, Date.now(), sessionRef, wxmp),
        userId,
        wxmpId,
        wxmpTemplate: chatTemplate(ctx),
      };
    });
  });
}
