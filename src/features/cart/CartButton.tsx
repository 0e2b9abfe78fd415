import { goTo } from '@/core/navigation';
import { cartLineCountAtom } from '@/state/cart';
import { userAtom } from '@/state/customer';
import { Text, View } from '@tarojs/components';
import { useDidShow } from '@tarojs/taro';
import { useAtom, useAtomValue } from 'jotai';
import { useCallback, useEffect } from 'react';
import { fetchCart } from './api';
import './cart-button.css';

export const CART_BUTTON_LABEL = 'Cart';

/** Keeps the cart icon's count in step with the saved cart each time the page shows (guests have none). */
export function useCartLineCount(): number {
  const user = useAtomValue(userAtom);
  const [count, setCount] = useAtom(cartLineCountAtom);
  const token = user?.token ?? '';
  const refresh = useCallback(() => {
    if (!token) {
      setCount(0);
      return;
    }
    fetchCart().then(
      (cart) => setCount(cart.lines.length),
      // The count stays as last seen: the cart page itself says what went wrong.
      () => undefined,
    );
  }, [token, setCount]);
  useEffect(() => refresh(), [refresh]);
  useDidShow(refresh);
  return count;
}

/**
 * The cart icon with the number of lines: floating above the page (home, lists) or inline in a bar (the product
 * page). A guest who taps it is sent to login and comes back to the cart. The floating one leaves room at the end of
 * the page (it is the page's last child), so the page's last line can scroll out from under it.
 */
export function CartButton({ inline = false }: { inline?: boolean }) {
  const count = useCartLineCount();
  const button = (
    <View
      className={`cart-button ${inline ? 'cart-button--inline' : 'cart-button--floating'}`}
      onClick={() => void goTo('cart')}
      aria-label={count > 0 ? `${CART_BUTTON_LABEL}, ${count} line${count === 1 ? '' : 's'}` : CART_BUTTON_LABEL}
    >
      <View className="cart-button__icon" />
      <Text className="cart-button__label">{CART_BUTTON_LABEL}</Text>
      {count > 0 && <Text className="cart-button__count">{count > 99 ? '99+' : count}</Text>}
    </View>
  );
  if (inline) return button;
  // The page's end scrolls clear of the floating button: without room below it, the last line stayed under it.
  return (
    <>
      <View className="cart-button-room" />
      {button}
    </>
  );
}
