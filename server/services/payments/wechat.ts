/**
 * WeChat Pay in the mini-program, API v3 for cross-border merchants (the shop's orders are in USD), through
 * wechatpay-axios-plugin: it signs every request with the merchant key and verifies every answer against WeChat
 * Pay's public key. The server makes the JSAPI prepay for the paying WeChat user's openid, signs the mini-program's
 * wx.requestPayment fields, reads transactions back, refunds, and verifies and decrypts notifications (RSA
 * signature, AES-256-GCM resource). The base URL is WeChat Pay's, or the local fake's in tests and the demo.
 */
import { Aes, Formatter, Rsa, Wechatpay } from 'wechatpay-axios-plugin';
import { PROVIDER_URLS, type WechatPayConfig } from '../../config';
import { registerProductionCheck } from '../../production-mode';
import type { ProviderView } from './ledger';

/** A transaction as WeChat Pay answers it (GET …/out-trade-no/{out_trade_no}) and notifies it. */
export interface WechatTransaction {
  out_trade_no: string;
  trade_state: string;
  trade_state_desc?: string;
  attach?: string;
  appid?: string;
  mchid?: string;
  payer?: { openid?: string };
  amount?: { total?: number; currency?: string };
}

export interface WechatNotification {
  id: string;
  event_type: string;
  resource: { algorithm: string; ciphertext: string; associated_data?: string; nonce: string };
}

/** What wx.requestPayment takes, signed by the merchant. */
export interface WechatPaySheet {
  timeStamp: string;
  nonceStr: string;
  package: string;
  signType: 'RSA';
  paySign: string;
}

/** WeChat Pay's notifications older or newer than this are refused (its own advice: five minutes). */
const MAX_NOTIFY_SKEW_S = 300;

export class WechatPayProvider {
  private readonly client: Wechatpay;
  private readonly privateKey: ReturnType<typeof Rsa.from>;
  private readonly platformKey: ReturnType<typeof Rsa.from>;

  constructor(
    readonly config: WechatPayConfig,
    readonly appid: string,
  ) {
    this.privateKey = Rsa.from(config.privateKey, Rsa.KEY_TYPE_PRIVATE);
    this.platformKey = Rsa.from(config.platformPublicKey, Rsa.KEY_TYPE_PUBLIC);
    this.client = new Wechatpay({
      mchid: config.mchid,
      serial: config.merchantSerial,
      privateKey: config.privateKey,
      certs: { [config.platformPublicKeyId]: config.platformPublicKey },
      baseURL: `${config.apiBase}/`,
      timeout: 20_000,
    });
  }

  /** Anything but WeChat Pay's own API is a stand-in: no money moves. */
  get testMode(): boolean {
    return this.config.apiBase !== PROVIDER_URLS.wechatPayApi;
  }

  /** JSAPI prepay for this WeChat user: the prepay id the payment sheet opens. */
  async prepay(input: {
    outTradeNo: string;
    orderId: number;
    description: string;
    amountCents: number;
    currency: string;
    openid: string;
  }): Promise<string> {
    const { data } = await this.client.chain('v3/global/transactions/jsapi').post({
      appid: this.appid,
      mchid: this.config.mchid,
      description: input.description,
      out_trade_no: input.outTradeNo,
      notify_url: this.config.notifyUrl,
      trade_type: 'JSAPI',
      // 5995: optical goods and eyeglasses.
      merchant_category_code: '5995',
      attach: String(input.orderId),
      amount: { total: input.amountCents, currency: input.currency },
      payer: { openid: input.openid },
    });
    return (data as unknown as { prepay_id: string }).prepay_id;
  }

  /** The fields of wx.requestPayment, signed with the merchant key over appid, time, nonce and package. */
  paySheet(prepayId: string): WechatPaySheet {
    const timeStamp = String(Formatter.timestamp());
    const nonceStr = Formatter.nonce();
    const pkg = `prepay_id=${prepayId}`;
    const paySign = Rsa.sign(Formatter.joinedByLineFeed(this.appid, timeStamp, nonceStr, pkg), this.privateKey);
    return { timeStamp, nonceStr, package: pkg, signType: 'RSA', paySign };
  }

  /** The transaction as WeChat Pay has it now; null when it has none under this number. */
  async transaction(outTradeNo: string): Promise<WechatTransaction | null> {
    try {
      // The chain fills {out_trade_no} from the request configuration.
      const { data } = await this.client.chain('v3/global/transactions/out-trade-no/{out_trade_no}').get({
        out_trade_no: encodeURIComponent(outTradeNo),
        params: { mchid: this.config.mchid },
      } as Parameters<Wechatpay['get']>[0]);
      return data as WechatTransaction;
    } catch (error) {
      if ((error as { response?: { status?: number } }).response?.status === 404) return null;
      throw error;
    }
  }

  refund(input: {
    outTradeNo: string;
    outRefundNo: string;
    refundCents: number;
    totalCents: number;
    currency: string;
  }) {
    return this.client.chain('v3/global/refunds').post({
      mchid: this.config.mchid,
      appid: this.appid,
      out_trade_no: input.outTradeNo,
      out_refund_no: input.outRefundNo,
      notify_url: this.config.notifyUrl,
      amount: { refund: input.refundCents, total: input.totalCents, currency: input.currency },
    });
  }

  /**
   * A notification's signature (WeChat Pay's public key over timestamp, nonce and the exact body), its key id and
   * its age; then its resource decrypted with the APIv3 key. Null for anything not from WeChat Pay.
   */
  openNotification(
    rawBody: string,
    headers: Record<string, string | string[] | undefined>,
    now = Date.now(),
  ): { notification: WechatNotification; resource: Record<string, unknown> } | null {
    const header = (name: string) => {
      const value = headers[name];
      return Array.isArray(value) ? value[0] : (value ?? '');
    };
    const timestamp = header('wechatpay-timestamp');
    const nonce = header('wechatpay-nonce');
    const signature = header('wechatpay-signature');
    if (header('wechatpay-serial') !== this.config.platformPublicKeyId || !timestamp || !nonce || !signature) {
      return null;
    }
    if (!/^\d+$/.test(timestamp) || Math.abs(now / 1000 - Number(timestamp)) > MAX_NOTIFY_SKEW_S) return null;
    let verified = false;
    try {
      verified = Rsa.verify(Formatter.response(timestamp, nonce, rawBody), signature, this.platformKey);
    } catch {
      verified = false;
    }
    if (!verified) return null;
    try {
      const notification = JSON.parse(rawBody) as WechatNotification;
      const { resource } = notification;
      if (resource?.algorithm !== 'AEAD_AES_256_GCM') return null;
      const plain = Aes.AesGcm.decrypt(
        resource.ciphertext,
        this.config.apiV3Key,
        resource.nonce,
        resource.associated_data ?? '',
      );
      return { notification, resource: JSON.parse(plain) as Record<string, unknown> };
    } catch {
      return null;
    }
  }
}

/** The order's payment as WeChat Pay has it. */
export function wechatView(transaction: WechatTransaction, orderId: number): ProviderView {
  const state = transaction.trade_state;
  const succeeded = state === 'SUCCESS' || state === 'REFUND';
  const declined = state === 'CLOSED' || state === 'PAYERROR' || state === 'REVOKED';
  return {
    provider: 'wechat',
    reference: transaction.out_trade_no,
    orderId,
    amountCents: transaction.amount?.total ?? 0,
    currency: (transaction.amount?.currency ?? '').toUpperCase(),
    status: succeeded ? 'succeeded' : declined ? 'declined' : 'pending',
    failure: declined ? transaction.trade_state_desc || `WeChat Pay: ${state}` : '',
  };
}

registerProductionCheck({
  id: 'payments.wechat',
  check({ config }) {
    const wechatPay = config?.wechatPay;
    if (!wechatPay) return [];
    const found = [];
    if (wechatPay.apiBase !== PROVIDER_URLS.wechatPayApi) {
      found.push({
        name: 'WECHATPAY_API_BASE',
        reason: `sends WeChat Pay payments to ${wechatPay.apiBase}, not to WeChat Pay`,
      });
    }
    if (!wechatPay.notifyUrl.startsWith('https://')) {
      found.push({
        name: 'WECHATPAY_NOTIFY_URL',
        reason: `is ${wechatPay.notifyUrl}: WeChat Pay only notifies https URLs, so a closed payment sheet would leave the order unpaid`,
      });
    }
    return found;
  },
});
