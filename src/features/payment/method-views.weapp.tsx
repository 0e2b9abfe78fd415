import type { PaymentPlatform } from './method-views';
import { WechatPayButton } from './weapp/wechat-pay';

/**
 * A mini-program can host none of the browser SDKs (Stripe's card fields, PayPal's buttons, Braintree's drop-in):
 * it offers what WeChat itself pays with.
 */
export const paymentPlatform: PaymentPlatform = { name: 'weapp', views: { wechat: WechatPayButton } };
