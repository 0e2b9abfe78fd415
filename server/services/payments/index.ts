/**
 * The payment providers of this server, chosen by the configuration: each is on when its keys are set (in tests and
 * the demo, keys pointing at the local fakes of server/sandbox), off otherwise; nothing falls back to a sandbox. The
 * app code is the production code: the official SDKs make every call, whoever answers them.
 */
import type { Kysely } from 'kysely';
import type { ServerConfig } from '../../config';
import type { Database } from '../../db/schema';
import { registerProductionCheck } from '../../production-mode';
import type { RefundGateway } from '../refund-gateway';
import { BraintreeProvider } from './braintree';
import { PaypalProvider } from './paypal';
import { braintreeRefunds, paypalRefunds, recordingRefundGateway, stripeRefunds, wechatRefunds } from './refunds';
import { StripeProvider } from './stripe';
import { WechatPayProvider } from './wechat';

export { BraintreeProvider, PaypalProvider, StripeProvider, WechatPayProvider };

export interface PaymentProviders {
  stripe: StripeProvider | null;
  paypal: PaypalProvider | null;
  braintree: BraintreeProvider | null;
  /** WeChat Pay, in the mini-program (with the mini-program's appid). */
  wechat: WechatPayProvider | null;
  /** What the order lifecycle refunds through (issue 18); records each refund on the order. */
  refunds: RefundGateway;
}

export function createPaymentProviders(
  config: ServerConfig,
  db: Kysely<Database>,
  now: () => number,
): PaymentProviders {
  const stripe = config.stripe ? new StripeProvider(config.stripe) : null;
  const paypal = config.paypal ? new PaypalProvider(config.paypal) : null;
  const braintree = config.braintree ? new BraintreeProvider(config.braintree) : null;
  const wechat = config.wechatPay && config.weapp ? new WechatPayProvider(config.wechatPay, config.weapp.appid) : null;
  return {
    stripe,
    paypal,
    braintree,
    wechat,
    refunds: recordingRefundGateway(db, now, {
      ...(stripe ? { card: stripeRefunds(stripe) } : {}),
      ...(paypal ? { paypal: paypalRefunds(paypal) } : {}),
      ...(braintree ? { braintree: braintreeRefunds(braintree) } : {}),
      ...(wechat ? { wechat: wechatRefunds(wechat) } : {}),
    }),
  };
}

registerProductionCheck({
  id: 'payments.sandbox',
  check({ config }) {
    if (!config?.paymentSandbox) return [];
    return [
      {
        name: 'PAYMENT_SANDBOX=1',
        reason:
          'runs card, PayPal, Braintree and WeChat Pay payments (and WeChat login) against local fakes of the providers: no money moves',
      },
    ];
  },
});
