/**
 * Braintree through its server SDK (`braintree`): client tokens for the drop-in, sales against the drop-in's nonce,
 * refunds and voids, and webhook notifications parsed (and their signature checked) by the SDK. The gateway is
 * Braintree's for BRAINTREE_ENV, or a local fake (BRAINTREE_GATEWAY_URL) through a custom Environment: the SDK speaks
 * the same XML protocol to either.
 */
import braintree from 'braintree';
import { type BraintreeConfig, PROVIDER_URLS } from '../../config';
import { registerProductionCheck } from '../../production-mode';
import type { ProviderView } from './ledger';

export type BraintreeTransaction = braintree.Transaction;

const PAID = ['authorized', 'authorizing', 'submitted_for_settlement', 'settling', 'settlement_pending', 'settled'];
const FAILED = ['processor_declined', 'gateway_rejected', 'settlement_declined', 'voided', 'failed'];

function environment(config: BraintreeConfig): braintree.Environment {
  if (config.gatewayUrl === PROVIDER_URLS.braintreeGateway.production) return braintree.Environment.Production;
  if (config.gatewayUrl === PROVIDER_URLS.braintreeGateway.sandbox) return braintree.Environment.Sandbox;
  const url = new URL(config.gatewayUrl);
  const ssl = url.protocol === 'https:';
  const port = url.port || (ssl ? '443' : '80');
  return new braintree.Environment(url.hostname, port, `${url.origin}/auth`, ssl, url.hostname, port);
}

export class BraintreeProvider {
  readonly gateway: braintree.BraintreeGateway;

  constructor(readonly config: BraintreeConfig) {
    this.gateway = new braintree.BraintreeGateway({
      environment: environment(config),
      merchantId: config.merchantId,
      publicKey: config.publicKey,
      privateKey: config.privateKey,
    });
  }

  get testMode(): boolean {
    return this.config.env === 'sandbox';
  }

  async clientToken(): Promise<string> {
    const answer = await this.gateway.clientToken.generate({});
    if (!answer.success) throw new Error(`Braintree refused a client token: ${answer.message}`);
    return answer.clientToken;
  }

  /** A sale of the order's total against the drop-in's nonce, 3-D Secure required, submitted for settlement. */
  sale(input: { nonce: string; amountCents: number; orderSn: string }) {
    return this.gateway.transaction.sale({
      amount: (input.amountCents / 100).toFixed(2),
      paymentMethodNonce: input.nonce,
      orderId: input.orderSn,
      options: { submitForSettlement: true, threeDSecure: { required: true } },
    });
  }

  find(id: string): Promise<BraintreeTransaction> {
    return this.gateway.transaction.find(id);
  }
}

/** The order's payment as Braintree has it; the order is found by its number (the sale's orderId). */
export function braintreeView(transaction: BraintreeTransaction, orderId: number): ProviderView {
  const status = PAID.includes(transaction.status)
    ? 'succeeded'
    : FAILED.includes(transaction.status)
      ? 'declined'
      : 'pending';
  const reason =
    transaction.status === 'gateway_rejected'
      ? `Gateway Rejected: ${transaction.gatewayRejectionReason}`
      : transaction.processorResponseText || transaction.status;
  return {
    provider: 'braintree',
    reference: transaction.id,
    orderId,
    amountCents: Math.round(Number(transaction.amount) * 100),
    currency: transaction.currencyIsoCode,
    status,
    failure: status === 'declined' ? reason : '',
  };
}

registerProductionCheck({
  id: 'payments.braintree',
  check({ config }) {
    const bt = config?.braintree;
    if (!bt) return [];
    const found = [];
    if (bt.env === 'sandbox') {
      found.push({
        name: 'BRAINTREE_ENV=sandbox',
        reason: "Braintree's sandbox: no money moves (set BRAINTREE_ENV=production)",
      });
    }
    if (bt.gatewayUrl !== PROVIDER_URLS.braintreeGateway.production) {
      found.push({
        name: 'BRAINTREE_GATEWAY_URL',
        reason: `sends Braintree payments to ${bt.gatewayUrl}, not to Braintree`,
      });
    }
    if (!bt.dropinUrl.startsWith('https://js.braintreegateway.com/')) {
      found.push({
        name: 'BRAINTREE_DROPIN_URL',
        reason: `loads the drop-in from ${bt.dropinUrl}, not from Braintree`,
      });
    }
    return found;
  },
});
