/**
 * The local fakes of the payment providers, for the tests and for `npm start`'s demo (PAYMENT_SANDBOX=1): Stripe,
 * PayPal and Braintree, each on its own port (its own origin, as the providers are), each with fresh test keys. `env`
 * is the configuration that points the shop's SDKs (server and browser) at them; `connect` tells them where the
 * shop's webhook endpoints are. Nothing here is loaded by the app's code paths: the app talks to whoever its
 * configuration names.
 */
import { BraintreeFake } from './braintree';
import { alphanumeric, randomId } from './http-kit';
import { PaypalFake } from './paypal';
import { StripeFake } from './stripe';
import { WeChatFake, newWeChatKeys } from './wechat';
import { WechatPayFake, newWechatPayKeys } from './wechatpay';

export { BraintreeFake, PaypalFake, StripeFake, WeChatFake, WechatPayFake };

export interface ProviderFakes {
  stripe: StripeFake;
  paypal: PaypalFake;
  braintree: BraintreeFake;
  /** WeChat's server API (code2Session) and WeChat Pay's v3 API, for the mini-program. */
  wechat: WeChatFake;
  wechatPay: WechatPayFake;
  /** The variables that point the shop at the fakes (keys, API bases, browser SDK URLs, webhook secrets). */
  env: Record<string, string>;
  /** Sends every fake's webhooks to the shop at this origin. */
  connect(shopOrigin: string): void;
  close(): Promise<void>;
}

export async function startProviderFakes(host = '127.0.0.1'): Promise<ProviderFakes> {
  const stripe = new StripeFake({
    secretKey: `sk_test_${randomId(12)}`,
    publishableKey: `pk_test_${randomId(12)}`,
    webhookSecret: `whsec_${randomId(16)}`,
  });
  const paypal = new PaypalFake({
    clientId: `A${alphanumeric(40)}`,
    clientSecret: `E${alphanumeric(40)}`,
    webhookId: alphanumeric(17, true),
  });
  const braintree = new BraintreeFake({
    merchantId: alphanumeric(16),
    publicKey: alphanumeric(16),
    privateKey: randomId(16),
  });
  const wechat = new WeChatFake(newWeChatKeys());
  const wechatPay = new WechatPayFake(newWechatPayKeys(wechat.keys.appid));
  await Promise.all([
    stripe.start(host),
    paypal.start(host),
    braintree.start(host),
    wechat.start(host),
    wechatPay.start(host),
  ]);
  const env = {
    STRIPE_SECRET_KEY: stripe.keys.secretKey,
    STRIPE_PUBLISHABLE_KEY: stripe.keys.publishableKey,
    STRIPE_WEBHOOK_SECRET: stripe.keys.webhookSecret,
    STRIPE_API_BASE: stripe.origin,
    STRIPE_JS_URL: `${stripe.origin}/endive/stripe.js`,
    PAYPAL_CLIENT_ID: paypal.keys.clientId,
    PAYPAL_CLIENT_SECRET: paypal.keys.clientSecret,
    PAYPAL_ENV: 'sandbox',
    PAYPAL_API_BASE: paypal.origin,
    PAYPAL_WEBHOOK_ID: paypal.keys.webhookId,
    PAYPAL_SDK_URL: `${paypal.origin}/sdk/js`,
    BRAINTREE_MERCHANT_ID: braintree.keys.merchantId,
    BRAINTREE_PUBLIC_KEY: braintree.keys.publicKey,
    BRAINTREE_PRIVATE_KEY: braintree.keys.privateKey,
    BRAINTREE_ENV: 'sandbox',
    BRAINTREE_GATEWAY_URL: braintree.origin,
    BRAINTREE_DROPIN_URL: `${braintree.origin}/web/dropin/1.48.0/js/dropin.min.js`,
    WEAPP_APPID: wechat.keys.appid,
    WEAPP_SECRET: wechat.keys.secret,
    WEAPP_API_BASE: wechat.origin,
    // The shop's own endpoint is known once it listens: connect() points the notifications at it.
    ...wechatPay.env('http://127.0.0.1/api/payment/webhook/wechat'),
  };
  return {
    stripe,
    paypal,
    braintree,
    wechat,
    wechatPay,
    env,
    connect(shopOrigin) {
      stripe.webhooks.endpoint = `${shopOrigin}/api/payment/webhook/stripe`;
      paypal.webhooks.endpoint = `${shopOrigin}/api/payment/webhook/paypal`;
      braintree.webhooks.endpoint = `${shopOrigin}/api/payment/webhook/braintree`;
      wechatPay.webhooks.endpoint = `${shopOrigin}/api/payment/webhook/wechat`;
    },
    async close() {
      await Promise.all([stripe.close(), paypal.close(), braintree.close(), wechat.close(), wechatPay.close()]);
    },
  };
}

/** Each provider's variables, so the sandbox fills in only the providers the environment leaves unset. */
const PROVIDER_KEYS: Record<string, string> = {
  STRIPE_: 'STRIPE_SECRET_KEY',
  PAYPAL_: 'PAYPAL_CLIENT_ID',
  BRAINTREE_: 'BRAINTREE_MERCHANT_ID',
  // WeChat Pay pays for the users of one mini-program: its fake goes with WeChat's, or not at all.
  WEAPP_: 'WEAPP_APPID',
  WECHATPAY_: 'WEAPP_APPID',
};

export function sandboxEnvironment(env: Record<string, string | undefined>, fakes: ProviderFakes) {
  const filled: Record<string, string | undefined> = { ...env };
  for (const [prefix, key] of Object.entries(PROVIDER_KEYS)) {
    if (env[key]) continue;
    for (const [name, value] of Object.entries(fakes.env)) if (name.startsWith(prefix)) filled[name] = value;
  }
  return filled;
}
