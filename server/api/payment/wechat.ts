import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { confirmWechatPayment, wechatPrepay } from '../../services/checkout';
import { routeGroup } from '../route';

/** WeChat Pay in the mini-program: a JSAPI prepay signed for wx.requestPayment, then the outcome read back. */
export function registerWechatPayRoutes(app: FastifyInstance, ctx: AppContext): void {
  routeGroup(app, ctx, { access: 'user', tag: 'payment' }, (group) => {
    group.route('POST /api/payment/wechat/prepay', ({ user, input }) => wechatPrepay(ctx, user.id, input));
    group.route('POST /api/payment/wechat/confirm', ({ user, input }) =>
      confirmWechatPayment(ctx, user.id, input.order_id),
    );
  });
}
