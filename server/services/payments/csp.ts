/**
 * What the site's CSP allows for the configured payment SDKs. A module of its own, without the providers' SDKs: the
 * security headers of every server (the messaging server alone too) need the sources, not Stripe's or Braintree's
 * clients, which are hundreds of modules to load and keep.
 */
import { type CspSources, PROVIDER_URLS, type ServerConfig } from '../../config';

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
