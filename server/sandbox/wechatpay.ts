/**
 * A local fake of WeChat Pay's API v3 for cross-border merchants, as the shop and the mini-program use it: JSAPI
 * prepay (`POST /v3/global/transactions/jsapi`), the transaction read back by the merchant's order number, and
 * refunds (`POST /v3/global/refunds`). Like WeChat Pay it checks every request's signature (WECHATPAY2-SHA256-RSA2048
 * with the merchant's key), signs every answer with its platform key (Wechatpay-Timestamp/-Nonce/-Serial/-Signature),
 * and sends notifications signed the same way with the resource AES-256-GCM encrypted under the APIv3 key. `pay` is
 * the WeChat payment sheet's side: it checks the mini-program's paySign before the user can pay. Built on node:crypto
 * only, so it checks the shop's SDK rather than sharing code with it.
 */
import {
  createCipheriv,
  createPrivateKey,
  createPublicKey,
  createSign,
  createVerify,
  generateKeyPairSync,
  randomBytes,
} from 'node:crypto';
import { type FakeRequest, type FakeResponse, FakeServer, WebhookSender, alphanumeric } from './http-kit';

export interface WechatPayFakeKeys {
  appid: string;
  mchid: string;
  merchantSerial: string;
  merchantPrivateKey: string;
  merchantPublicKey: string;
  platformPublicKeyId: string;
  platformPrivateKey: string;
  platformPublicKey: string;
  apiV3Key: string;
}

export interface FakeTransaction {
  id: string;
  outTradeNo: string;
  prepayId: string;
  appid: string;
  openid: string;
  description: string;
  attach: string;
  total: number;
  currency: string;
  state: 'NOTPAY' | 'SUCCESS' | 'REFUND' | 'CLOSED' | 'PAYERROR';
  successTime: string;
  refunded: number;
}

interface FakeRefund {
  id: string;
  outRefundNo: string;
  outTradeNo: string;
  refund: number;
  status: 'PROCESSING' | 'SUCCESS';
}

const MAX_CLOCK_SKEW_S = 300;

/** A merchant, its API key pair and WeChat Pay's platform key pair, fresh for each fake. */
export function newWechatPayKeys(appid: string): WechatPayFakeKeys {
  const merchant = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const platform = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pemOf = (key: ReturnType<typeof generateKeyPairSync>['privateKey'], type: 'pkcs8' | 'spki') =>
    key.export({ type, format: 'pem' }).toString();
  return {
    appid,
    mchid: String(1_900_000_000 + (randomBytes(3).readUIntBE(0, 3) % 99_999_999)),
    merchantSerial: randomBytes(20).toString('hex').toUpperCase(),
    merchantPrivateKey: pemOf(merchant.privateKey, 'pkcs8'),
    merchantPublicKey: pemOf(merchant.publicKey, 'spki'),
    platformPublicKeyId: `PUB_KEY_ID_${randomBytes(12).toString('hex').toUpperCase()}`,
    platformPrivateKey: pemOf(platform.privateKey, 'pkcs8'),
    platformPublicKey: pemOf(platform.publicKey, 'spki'),
    apiV3Key: alphanumeric(32),
  };
}

const shanghaiTime = (ms: number) => `${new Date(ms + 8 * 3600_000).toISOString().slice(0, 19)}+08:00`;

export class WechatPayFake {
  private readonly server = new FakeServer();
  readonly transactions = new Map<string, FakeTransaction>();
  readonly refunds = new Map<string, FakeRefund>();
  readonly webhooks = new WebhookSender();
  /** Requests refused for a bad or missing signature (a test holds the shop's SDK to signing every call). */
  readonly refusedSignatures: string[] = [];
  private notifyUrl = '';

  constructor(readonly keys: WechatPayFakeKeys) {
    this.server.on('POST', '/v3/global/transactions/jsapi', (request) =>
      this.signed(request, () => this.jsapi(request)),
    );
    this.server.on('GET', '/v3/global/transactions/out-trade-no/:no', (request) =>
      this.signed(request, () => this.query(request)),
    );
    this.server.on('POST', '/v3/global/refunds', (request) => this.signed(request, () => this.refund(request)));
  }

  get origin(): string {
    return this.server.origin;
  }

  start(host = '127.0.0.1'): Promise<string> {
    return this.server.listen(host);
  }

  close(): Promise<void> {
    return this.server.close();
  }

  /** The configuration that points the shop's WeChat Pay at this fake. */
  env(notifyUrl: string): Record<string, string> {
    this.notifyUrl = notifyUrl;
    return {
      WECHATPAY_MCHID: this.keys.mchid,
      WECHATPAY_MERCHANT_SERIAL: this.keys.merchantSerial,
      WECHATPAY_PRIVATE_KEY: this.keys.merchantPrivateKey,
      WECHATPAY_PUBLIC_KEY_ID: this.keys.platformPublicKeyId,
      WECHATPAY_PUBLIC_KEY: this.keys.platformPublicKey,
      WECHATPAY_APIV3_KEY: this.keys.apiV3Key,
      WECHATPAY_API_BASE: this.origin,
      WECHATPAY_NOTIFY_URL: notifyUrl,
    };
  }

  /**
   * The payment sheet: wx.requestPayment's fields, checked as WeChat checks them (the prepay exists, belongs to
   * this appid and this WeChat user, the paySign is the merchant's over appid, timeStamp, nonceStr and package);
   * then the user pays and WeChat Pay notifies the merchant. Answers what the sheet shows.
   */
  pay(
    request: { timeStamp: string; nonceStr: string; package: string; signType: string; paySign: string },
    user: { appid: string; openid: string },
    outcome: 'paid' | 'cancel' = 'paid',
  ): 'paid' | 'cancel' | 'fail' {
    const prepayId = request.package.replace(/^prepay_id=/, '');
    const transaction = [...this.transactions.values()].find((candidate) => candidate.prepayId === prepayId);
    if (!transaction || transaction.appid !== user.appid || transaction.openid !== user.openid) return 'fail';
    if (request.signType !== 'RSA') return 'fail';
    const message = `${user.appid}\n${request.timeStamp}\n${request.nonceStr}\n${request.package}\n`;
    const verifier = createVerify('RSA-SHA256').update(message);
    if (!verifier.verify(createPublicKey(this.keys.merchantPublicKey), request.paySign, 'base64')) return 'fail';
    if (outcome === 'cancel') return 'cancel';
    if (transaction.state !== 'NOTPAY') return 'fail';
    transaction.state = 'SUCCESS';
    transaction.successTime = shanghaiTime(Date.now());
    this.notify('TRANSACTION.SUCCESS', 'transaction', this.transactionBody(transaction));
    return 'paid';
  }

  /** An answer signed with the platform key, as WeChat Pay signs every answer. */
  private answer(status: number, value: unknown): FakeResponse {
    const body = value === undefined ? '' : JSON.stringify(value);
    return { status, body, type: 'application/json', headers: this.signatureHeaders(body) };
  }

  private signatureHeaders(body: string): Record<string, string> {
    const timestamp = String(Math.floor(Date.now() / 1000));
    const nonce = alphanumeric(32).toUpperCase();
    const signature = createSign('RSA-SHA256')
      .update(`${timestamp}\n${nonce}\n${body}\n`)
      .sign(createPrivateKey(this.keys.platformPrivateKey), 'base64');
    return {
      'Wechatpay-Timestamp': timestamp,
      'Wechatpay-Nonce': nonce,
      'Wechatpay-Serial': this.keys.platformPublicKeyId,
      'Wechatpay-Signature': signature,
      'Request-ID': randomBytes(16).toString('hex'),
    };
  }

  /** WeChat Pay's check of the merchant's Authorization header; a refusal is its 401 SIGN_ERROR. */
  private signed(request: FakeRequest, handle: () => FakeResponse): FakeResponse {
    const header = String(request.headers.authorization ?? '');
    const scheme = 'WECHATPAY2-SHA256-RSA2048 ';
    const fields = Object.fromEntries(
      [...header.slice(scheme.length).matchAll(/(\w+)="([^"]*)"/g)].map((match) => [match[1], match[2]]),
    );
    const query = request.query.toString();
    const uri = `${request.path}${query ? `?${query}` : ''}`;
    const message = `${request.method}\n${uri}\n${fields.timestamp}\n${fields.nonce_str}\n${request.raw}\n`;
    const fresh = Math.abs(Date.now() / 1000 - Number(fields.timestamp)) <= MAX_CLOCK_SKEW_S;
    const valid =
      header.startsWith(scheme) &&
      fields.mchid === this.keys.mchid &&
      fields.serial_no === this.keys.merchantSerial &&
      fresh &&
      createVerify('RSA-SHA256')
        .update(message)
        .verify(createPublicKey(this.keys.merchantPublicKey), fields.signature ?? '', 'base64');
    if (!valid) {
      this.refusedSignatures.push(uri);
      return this.answer(401, { code: 'SIGN_ERROR', message: 'Signature verification failed' });
    }
    return handle();
  }

  private jsapi(request: FakeRequest): FakeResponse {
    const body = JSON.parse(request.raw || '{}') as {
      appid?: string;
      mchid?: string;
      description?: string;
      out_trade_no?: string;
      notify_url?: string;
      trade_type?: string;
      attach?: string;
      amount?: { total?: number; currency?: string };
      payer?: { openid?: string };
    };
    const invalid = (message: string) => this.answer(400, { code: 'PARAM_ERROR', message });
    if (body.appid !== this.keys.appid) return invalid('appid and mchid do not match');
    if (body.mchid !== this.keys.mchid) return invalid('mchid is invalid');
    if (body.trade_type !== 'JSAPI') return invalid('trade_type must be JSAPI');
    if (!body.out_trade_no || !/^[\w|*-]{6,32}$/.test(body.out_trade_no)) return invalid('out_trade_no is invalid');
    if (!body.description) return invalid('description is required');
    if (!body.notify_url?.startsWith('http')) return invalid('notify_url is invalid');
    if (!body.payer?.openid) return invalid('payer.openid is required');
    const total = body.amount?.total;
    if (!Number.isInteger(total) || (total as number) <= 0) return invalid('amount.total is invalid');
    if (!body.amount?.currency || !/^[A-Z]{3}$/.test(body.amount.currency))
      return invalid('amount.currency is invalid');
    const existing = this.transactions.get(body.out_trade_no);
    if (existing) {
      if (existing.state !== 'NOTPAY') return this.answer(400, { code: 'ORDERPAID', message: 'order paid' });
      if (existing.total !== total || existing.openid !== body.payer.openid) {
        return this.answer(400, { code: 'OUT_TRADE_NO_USED', message: 'out_trade_no is used' });
      }
      return this.answer(200, { prepay_id: existing.prepayId });
    }
    const transaction: FakeTransaction = {
      id: `4200${Date.now()}${alphanumeric(8, true).replace(/\D/g, '7')}`.slice(0, 28),
      outTradeNo: body.out_trade_no,
      prepayId: `wx${randomBytes(16).toString('hex')}`,
      appid: body.appid,
      openid: body.payer.openid,
      description: body.description,
      attach: body.attach ?? '',
      total: total as number,
      currency: body.amount.currency,
      state: 'NOTPAY',
      successTime: '',
      refunded: 0,
    };
    this.transactions.set(transaction.outTradeNo, transaction);
    if (body.notify_url && !this.notifyUrl) this.notifyUrl = body.notify_url;
    return this.answer(200, { prepay_id: transaction.prepayId });
  }

  private transactionBody(transaction: FakeTransaction) {
    const paid = transaction.state === 'SUCCESS' || transaction.state === 'REFUND';
    return {
      id: paid ? transaction.id : undefined,
      appid: transaction.appid,
      mchid: this.keys.mchid,
      out_trade_no: transaction.outTradeNo,
      trade_type: 'JSAPI',
      trade_state: transaction.state,
      trade_state_desc: paid ? '支付成功' : '订单未支付',
      attach: transaction.attach,
      success_time: paid ? transaction.successTime : undefined,
      payer: { openid: transaction.openid },
      amount: {
        total: transaction.total,
        currency: transaction.currency,
        payer_total: paid ? transaction.total * 7 : undefined,
        payer_currency: 'CNY',
        exchange_rate: { type: 'SETTLEMENT_RATE', rate: 700000000 },
      },
    };
  }

  private query(request: FakeRequest): FakeResponse {
    if (request.query.get('mchid') !== this.keys.mchid) {
      return this.answer(400, { code: 'PARAM_ERROR', message: 'mchid is invalid' });
    }
    const transaction = this.transactions.get(request.params.no);
    if (!transaction) return this.answer(404, { code: 'ORDER_NOT_EXIST', message: 'order not exist' });
    return this.answer(200, this.transactionBody(transaction));
  }

  private refund(request: FakeRequest): FakeResponse {
    const body = JSON.parse(request.raw || '{}') as {
      mchid?: string;
      appid?: string;
      out_trade_no?: string;
      out_refund_no?: string;
      amount?: { refund?: number; total?: number; currency?: string };
    };
    const invalid = (message: string) => this.answer(400, { code: 'PARAM_ERROR', message });
    if (body.mchid !== this.keys.mchid) return invalid('mchid is invalid');
    if (!body.out_refund_no) return invalid('out_refund_no is required');
    const transaction = this.transactions.get(body.out_trade_no ?? '');
    if (!transaction) return this.answer(404, { code: 'RESOURCE_NOT_EXISTS', message: 'order not exist' });
    const earlier = this.refunds.get(body.out_refund_no);
    if (earlier) return this.answer(200, this.refundBody(earlier, transaction));
    const refund = body.amount?.refund ?? 0;
    if (transaction.state !== 'SUCCESS' && transaction.state !== 'REFUND') {
      return this.answer(403, { code: 'TRADE_STATE_ERROR', message: 'the order is not paid' });
    }
    if (body.amount?.total !== transaction.total || body.amount?.currency !== transaction.currency) {
      return invalid('amount.total or amount.currency does not match the order');
    }
    if (!Number.isInteger(refund) || refund <= 0 || refund > transaction.total - transaction.refunded) {
      return this.answer(403, { code: 'NOT_ENOUGH', message: 'the refund exceeds what is left of the payment' });
    }
    transaction.refunded += refund;
    transaction.state = 'REFUND';
    const record: FakeRefund = {
      id: `5030${Date.now()}`.slice(0, 28),
      outRefundNo: body.out_refund_no,
      outTradeNo: transaction.outTradeNo,
      refund,
      status: 'PROCESSING',
    };
    this.refunds.set(record.outRefundNo, record);
    // The refund settles shortly after, and WeChat Pay says so with a REFUND.SUCCESS notification.
    setTimeout(() => {
      record.status = 'SUCCESS';
      this.notify('REFUND.SUCCESS', 'refund', {
        mchid: this.keys.mchid,
        out_trade_no: record.outTradeNo,
        transaction_id: transaction.id,
        out_refund_no: record.outRefundNo,
        refund_id: record.id,
        refund_status: 'SUCCESS',
        success_time: shanghaiTime(Date.now()),
        amount: { total: transaction.total, refund: record.refund, currency: transaction.currency },
      });
    }, 50).unref();
    return this.answer(200, this.refundBody(record, transaction));
  }

  private refundBody(record: FakeRefund, transaction: FakeTransaction) {
    return {
      id: record.id,
      out_refund_no: record.outRefundNo,
      out_trade_no: record.outTradeNo,
      transaction_id: transaction.id,
      create_time: shanghaiTime(Date.now()),
      status: record.status,
      amount: { refund: record.refund, total: transaction.total, currency: transaction.currency },
    };
  }

  /** A notification as WeChat Pay sends it: the resource encrypted under the APIv3 key, the body signed. */
  private notify(eventType: string, associatedData: string, resource: unknown): void {
    const nonce = alphanumeric(12);
    const cipher = createCipheriv('aes-256-gcm', Buffer.from(this.keys.apiV3Key), Buffer.from(nonce));
    cipher.setAAD(Buffer.from(associatedData));
    const ciphertext = Buffer.concat([
      cipher.update(JSON.stringify(resource), 'utf8'),
      cipher.final(),
      cipher.getAuthTag(),
    ]).toString('base64');
    const id = randomBytes(18).toString('hex');
    const body = JSON.stringify({
      id,
      create_time: shanghaiTime(Date.now()),
      resource_type: 'encrypt-resource',
      event_type: eventType,
      summary: eventType === 'TRANSACTION.SUCCESS' ? '支付成功' : '退款成功',
      resource: {
        original_type: associatedData,
        algorithm: 'AEAD_AES_256_GCM',
        ciphertext,
        associated_data: associatedData,
        nonce,
      },
    });
    this.webhooks.endpoint ||= this.notifyUrl;
    this.webhooks.send({
      id,
      type: eventType,
      body,
      headers: { 'content-type': 'application/json', ...this.signatureHeaders(body) },
    });
  }
}
