/**
 * The payment providers of this server, chosen by the configuration: each is on when its keys are set (in tests and
 * the demo, keys pointing at the local fakes of server/sandbox), off otherwise; nothing falls back to a sandbox. The
 * app code is the production code: the official SDKs make every call, whoever answers them.
 */
import type { Kysely } from 'kysely';
import { type CspSources, PROVIDER_URLS, type ServerConfig } from '../../config';
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

const origin = (url: string) => new URL(url).origin;

/**
 * The sources the site's CSP adds for the configured payment SDKs, and only those: each provider's documented list
 * when it loads from the provider, or the one origin of a configured stand-in (a local fake) otherwise.
 */
export function paymentCspSources(config: ServerConfig): CspSources {
  const sources: CspSources = { scriptSrc: [], frameSrc: [], connectSrc: [] };
  const add = (script: string[], frame: string[], connect: string[]) => {
    sources.scriptSrc.push(...script);
    sources.frameSrc.push(...frame);
    sources.connectSrc.push(...connect);
  };
  if (config.stripe) {
    if (config.stripe.jsUrl.startsWith('https://js.stripe.com/')) {
      add(
        ['https://js.stripe.com', 'https://*.js.stripe.com'],
        ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com'],
        [PROVIDER_URLS.stripeApi],
      );
    } else {
      const standIn = origin(config.stripe.jsUrl);
      add([standIn], [standIn], [standIn]);
    }
  }
  if (config.paypal) {
    if (Object.values(PROVIDER_URLS.paypalSdk).includes(config.paypal.sdkUrl as never)) {
      // PayPal's CSP guide: the SDK, its buttons' frames and their calls are on paypal.com's hosts.
      const site = [origin(config.paypal.sdkUrl), 'https://*.paypal.com'];
      add(site, site, site);
    } else {
      const standIn = origin(config.paypal.sdkUrl);
      add([standIn], [standIn], [standIn]);
    }
  }
  if (config.braintree) {
    if (config.braintree.dropinUrl.startsWith('https://js.braintreegateway.com/')) {
      const sandbox = config.braintree.env === 'sandbox';
      add(
        ['https://js.braintreegateway.com', 'https://assets.braintreegateway.com'],
        ['https://assets.braintreegateway.com'],
        [
          sandbox ? 'https://api.sandbox.braintreegateway.com' : 'https://api.braintreegateway.com',
          sandbox ? 'https://payments.sandbox.braintree-api.com' : 'https://payments.braintree-api.com',
          'https://client-analytics.braintreegateway.com',
        ],
      );
    } else {
      const standIn = origin(config.braintree.dropinUrl);
      add([standIn], [standIn], [standIn]);
    }
  }
  const unique = (list: string[]) => [...new Set(list)];
  return {
    scriptSrc: unique(sources.scriptSrc),
    frameSrc: unique(sources.frameSrc),
    connectSrc: unique(sources.connectSrc),
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
