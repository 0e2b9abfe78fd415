import { failureMessage } from '@/features/order/api-error';
import { Text, View } from '@tarojs/components';
import Taro from '@tarojs/taro';
import { useState } from 'react';
import { confirmWechatPayment, startWechatPayment } from '../api';
import type { MethodViewProps } from '../method-views';

export const WECHAT_PAY_CANCELLED = 'Payment cancelled: you can pay again when you are ready.';

/** wx.requestPayment fails with this errMsg when the user closes WeChat's payment sheet. */
const cancelled = (reason: unknown) => /cancel/i.test(String((reason as { errMsg?: string })?.errMsg ?? ''));

/**
 * WeChat Pay in the mini-program: a fresh wx.login code names the WeChat user who pays, the server makes the
 * prepay for them and signs the sheet's fields, WeChat's payment sheet takes the money, and the server reads the
 * outcome back from WeChat Pay (the sheet's word is never taken for payment).
 */
export function WechatPayButton({ order, onPaid }: MethodViewProps) {
  const [paying, setPaying] = useState(false);
  const [message, setMessage] = useState('');

  const pay = async () => {
    if (paying) return;
    setPaying(true);
    setMessage('');
    try {
      const { code } = await Taro.login();
      const sheet = await startWechatPayment(order.order_id, code);
      await Taro.requestPayment({
        timeStamp: sheet.time_stamp,
        nonceStr: sheet.nonce_str,
        package: sheet.package,
        signType: sheet.sign_type,
        paySign: sheet.pay_sign,
      });
      onPaid(await confirmWechatPayment(order.order_id));
    } catch (reason) {
      setMessage(cancelled(reason) ? WECHAT_PAY_CANCELLED : failureMessage(reason));
      setPaying(false);
    }
  };

  return (
    <View className="payment__method payment__wechat">
      {message && <Text className="shop-alert payment__failure">{message}</Text>}
      <View className={`shop-button payment__pay ${paying ? 'shop-button--disabled' : ''}`} onClick={pay}>
        <Text>{paying ? 'Paying…' : 'Pay with WeChat Pay'}</Text>
      </View>
    </View>
  );
}
