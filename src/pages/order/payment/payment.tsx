import { buildUrl, requireLogin } from '@/core/navigation';
import { NAMED_TARGETS } from '@/core/routes';
import { useRouteRecord } from '@/core/use-route-record';
import { type Order, fetchOrder } from '@/features/order/api';
import { failureMessage } from '@/features/order/api-error';
import {
  type BraintreeToken,
  type PaypalOrder,
  approveSandboxPaypal,
  braintreeCheckout,
  capturePaypalOrder,
  createPaypalOrder,
  fetchBraintreeToken,
  payByCard,
} from '@/features/payment/api';
import { type CardErrors, type CardForm, readCard } from '@/features/payment/card-form';
import { paymentPlatform } from '@/features/payment/platform';
import { PAYMENT_PAGE } from '@/features/payment/routes';
import { currentToken } from '@/state/customer';
import { FieldFrame } from '@/ui/shop/Field';
import { Money } from '@/ui/shop/Money';
import { type LoadState, StateView } from '@/ui/shop/StateView';
import { cardDigits, formatCardNumber, formatExpiryInput } from '@/utils/card';
import { Input, Text, View } from '@tarojs/components';
import Taro, { useRouter } from '@tarojs/taro';
import { useCallback, useEffect, useState } from 'react';
import '@/ui/shop/shop.css';
import './payment.css';

const BRAINTREE_SANDBOX_NONCE = 'fake-valid-nonce';

function openOrder(order: Order): void {
  void Taro.redirectTo({ url: buildUrl(NAMED_TARGETS.orderDetail, { order_id: String(order.order_id) }) });
}

export default function PaymentPage() {
  useRouteRecord();
  const orderId = Number(useRouter().params.order_id);
  const [order, setOrder] = useState<Order | null>(null);
  const [state, setState] = useState<LoadState>('loading');
  const [loadError, setLoadError] = useState('');
  const [form, setForm] = useState<CardForm>({ number: '', expiry: '', cvc: '' });
  const [errors, setErrors] = useState<CardErrors>({});

  /** A card field: what is typed is formatted (digits, groups, the expiry slash) and clears that field's error. */
  const cardInput = (
    key: keyof CardForm,
    name: string,
    placeholder: string,
    maxlength: number,
    format: (value: string) => string,
    extraClass = '',
  ) => (
    <Input
      className={`shop-field__input ${extraClass}`.trim()}
      name={name}
      type="text"
      placeholder={placeholder}
      maxlength={maxlength}
      value={form[key]}
      onInput={(event) => {
        const value = format(event.detail.value);
        setForm({ ...form, [key]: value });
        if (errors[key]) setErrors({ ...errors, [key]: undefined });
        return value;
      }}
    />
  );
  const [failure, setFailure] = useState('');
  const [paying, setPaying] = useState(false);
  const [paypal, setPaypal] = useState<PaypalOrder | null>(null);
  const [braintree, setBraintree] = useState<BraintreeToken | null>(null);

  useEffect(() => {
    requireLogin({ path: PAYMENT_PAGE, query: { order_id: String(orderId) } });
  }, [orderId]);

  const load = useCallback(() => {
    setState('loading');
    fetchOrder(orderId).then(
      (found) => {
        if (!found) {
          setLoadError('This order does not exist or was deleted');
          setState('error');
          return;
        }
        setOrder(found);
        setState('ready');
      },
      (reason: unknown) => {
        setLoadError(failureMessage(reason));
        setState('error');
      },
    );
    fetchBraintreeToken().then(setBraintree, () => setBraintree(null));
  }, [orderId]);

  useEffect(() => {
    if (currentToken()) load();
  }, [load]);

  const run = (attempt: () => Promise<Order>) => {
    if (paying) return;
    setPaying(true);
    setFailure('');
    attempt().then(
      (paid) => {
        setPaying(false);
        openOrder(paid);
      },
      (reason: unknown) => {
        setPaying(false);
        setFailure(failureMessage(reason));
      },
    );
  };

  const payCard = () => {
    const { card, errors: found } = readCard(form);
    setErrors(found);
    if (!card || !order) return;
    run(() => payByCard(order.order_id, card));
  };

  const startPaypal = () => {
    if (!order || paying) return;
    setFailure('');
    createPaypalOrder(order.order_id).then(
      (created) => {
        setPaypal(created);
        if (created.mode === 'paypal') paymentPlatform.openPaypalApproval(created.approve_url);
      },
      (reason: unknown) => setFailure(failureMessage(reason)),
    );
  };

  const completePaypal = () => {
    if (!order || !paypal) return;
    const sandbox = paypal.mode === 'sandbox';
    run(async () => {
      if (sandbox) await approveSandboxPaypal(paypal.paypal_order_id);
      return capturePaypalOrder(order.order_id, paypal.paypal_order_id);
    });
  };

  if (state !== 'ready' || !order) {
    return (
      <View className="shop-page">
        <StateView state={state} error={loadError} onRetry={load} />
      </View>
    );
  }

  if (order.status !== 'created') {
    return (
      <View className="shop-page">
        <View className="shop-card payment-done">
          <Text className="shop-card__title">Order {order.order_sn}</Text>
          <Text className="shop-muted">This order needs no payment: it is {order.status}.</Text>
          <View className="shop-button payment-done__action" onClick={() => openOrder(order)}>
            <Text>See the order</Text>
          </View>
        </View>
      </View>
    );
  }

  return (
    <View className="shop-page payment">
      <View className="shop-card payment__summary">
        <Text className="shop-muted">Order {order.order_sn}</Text>
        <Text className="payment__amount-label">Amount to pay</Text>
        <Money value={order.total} className="payment__amount" />
      </View>

      {failure && <Text className="shop-alert payment__failure">{failure}</Text>}

      <View className="shop-card">
        <Text className="shop-card__title">Card</Text>
        <FieldFrame label="Card number" error={errors.number}>
          {cardInput('number', 'card_number', '1234 5678 9012 3456', 23, formatCardNumber, 'payment__number')}
        </FieldFrame>
        <View className="payment__pair">
          <FieldFrame label="Expiry" error={errors.expiry}>
            {cardInput('expiry', 'card_expiry', 'MM/YY', 5, (value) => formatExpiryInput(value, form.expiry))}
          </FieldFrame>
          <FieldFrame label="CVC" error={errors.cvc}>
            {cardInput('cvc', 'card_cvc', '123', 4, (value) => cardDigits(value).slice(0, 4))}
          </FieldFrame>
        </View>
        <View className={`shop-button payment__pay ${paying ? 'shop-button--disabled' : ''}`} onClick={payCard}>
          <Text>{paying ? 'Paying…' : 'Pay by card'}</Text>
        </View>
      </View>

      <View className="shop-card">
        <Text className="shop-card__title">Wallet</Text>
        {paypal ? (
          <View className="payment__wallet">
            <Text className="shop-muted">
              {paypal.mode === 'sandbox'
                ? 'PayPal sandbox: approve the payment as the buyer, then it is captured.'
                : 'Approve the payment in the PayPal window, then come back to complete it.'}
            </Text>
            <View
              className={`shop-button payment__paypal ${paying ? 'shop-button--disabled' : ''}`}
              onClick={completePaypal}
            >
              <Text>
                {paypal.mode === 'sandbox' ? 'Approve and pay with PayPal' : 'I approved, complete the payment'}
              </Text>
            </View>
          </View>
        ) : (
          <View className="shop-button payment__paypal" onClick={startPaypal}>
            <Text>Pay with PayPal</Text>
          </View>
        )}
        {braintree?.mode === 'sandbox' && (
          <View
            className={`shop-button shop-button--ghost payment__braintree ${paying ? 'shop-button--disabled' : ''}`}
            onClick={() => run(() => braintreeCheckout(order.order_id, BRAINTREE_SANDBOX_NONCE))}
          >
            <Text>Pay with Braintree (sandbox)</Text>
          </View>
        )}
      </View>
    </View>
  );
}
