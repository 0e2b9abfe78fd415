import type { FastifyInstance } from 'fastify';
import { requestToken, toUser } from '../../auth';
import type { AppContext } from '../../context';
import { ApiError } from '../../http';
import {
  GOOGLE_NOT_CONFIGURED,
  accountExists,
  changePassword,
  googleSignIn,
  login,
  logout,
  mailResetCode,
  register,
  resetPassword,
  showUser,
} from '../../services/accounts';
import { wechatLogin } from '../../services/wechat-login';
import { routeGroup, signedIn } from '../route';

/** Per-IP limits: `limited` on every route that hashes a password or mails a code, `checkLimited` on check_account. */
export interface AuthLimits {
  limited: { config: Record<string, unknown> };
  checkLimited: { config: Record<string, unknown> };
}

/** Sign-up, sign-in and passwords. */
export function registerAuthRoutes(app: FastifyInstance, ctx: AppContext, limits: AuthLimits): void {
  const { limited, checkLimited } = limits;
  const google = googleSignIn(ctx);
  routeGroup(app, ctx, { access: 'public', tag: 'account' }, (group) => {
    group.route('POST /api/auth/register', ({ input }) => register(ctx, input), limited);
    group.route('POST /api/auth/login', ({ input, request }) => login(ctx, input, request.ip), limited);
    group.route(
      'POST /api/auth/check_account',
      async ({ input }) => ({ exists: await accountExists(ctx, input.email) }),
      checkLimited,
    );
    group.route(
      'POST /api/auth/forget_password',
      async ({ input }) => {
        await mailResetCode(ctx, input.email);
        return { sent: true as const };
      },
      limited,
    );
    group.route('POST /api/google/google_login', ({ input }) => google(input.id_token), {
      ...limited,
      // Said before the request is looked at, as the route always did: the feature is off without a client id.
      preValidation: [
        async () => {
          if (!ctx.config.googleClientId) throw new ApiError(503, GOOGLE_NOT_CONFIGURED);
        },
      ],
    });
    // Rate-limited like login: linking checks a password.
    group.route('POST /api/wechat/login', ({ input, request }) => wechatLogin(ctx, input, request.ip), limited);
    group.route(
      'POST /api/user/change_password_with_verification_code',
      async ({ input, request }) => {
        await resetPassword(ctx, input, request.ip);
        return { changed: true as const };
      },
      limited,
    );
  });
  routeGroup(app, ctx, { access: 'viewer', tag: 'account' }, (group) => {
    // Without user_id it is the caller in full, which needs a token; with one, anyone may look.
    group.route('POST /api/user/user_show', async ({ input, user }) =>
      input.user_id === undefined ? toUser(signedIn(user)) : showUser(ctx, input.user_id),
    );
  });
  routeGroup(app, ctx, { access: 'user', tag: 'account' }, (group) => {
    group.route('POST /api/auth/logout', async ({ user, request }) => {
      await logout(ctx, user, requestToken(request));
      return { logged_out: true as const };
    });
    group.route(
      'POST /api/user/change_password',
      ({ user, input, request }) => changePassword(ctx, user, input, request.ip),
      limited,
    );
  });
}
