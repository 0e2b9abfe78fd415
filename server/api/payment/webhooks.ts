import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { braintreeWebhook, paypalWebhook, stripeWebhook, wechatWebhook } from '../../services/payment-webhooks';
import { routeGroup } from '../route';

declare module 'fastify' {
  interface FastifyRequest {
    /** The body's exact bytes, in the webhook routes only: signatures are over them, not over parsed JSON. */
    rawBody?: string;
  }
}

/**
 * The providers' webhooks, public as the providers call them, and believed only once verified. Their own scope
 * keeps the raw body beside the parsed one (fastify's JSON parser, with its prototype-poisoning checks) and reads
 * Braintree's form-encoded notifications.
 */
export function registerWebhookRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.register(async (hooks) => {
    const parseJson = hooks.getDefaultJsonParser('error', 'error');
    hooks.removeContentTypeParser('application/json');
    hooks.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      request.rawBody = body as string;
      parseJson(request, body as string, done);
    });
    hooks.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (request, body, done) => {
      request.rawBody = body as string;
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });
    routeGroup(hooks, ctx, { access: 'public', tag: 'payment' }, (group) => {
      group.route('POST /api/payment/webhook/stripe', ({ request }) =>
        stripeWebhook(ctx, request.rawBody ?? '', String(request.headers['stripe-signature'] ?? '')),
      );
      group.route('POST /api/payment/webhook/paypal', ({ request }) =>
        paypalWebhook(ctx, request.rawBody ?? '', request.headers),
      );
      group.route('POST /api/payment/webhook/wechat', ({ request }) =>
        wechatWebhook(ctx, request.rawBody ?? '', request.headers),
      );
      group.route('POST /api/payment/webhook/braintree', ({ input }) =>
        braintreeWebhook(ctx, input.bt_signature, input.bt_payload),
      );
    });
  });
}
