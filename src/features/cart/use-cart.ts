import { failureMessage } from '@/features/order/api-error';
import { cartLineCountAtom } from '@/state/cart';
import type { LoadState } from '@/ui/shop/StateView';
import { useSetAtom } from 'jotai';
import { useCallback, useRef, useState } from 'react';
import { type Cart, type CartLineInput, MAX_LINE_QUANTITY, MIN_LINE_QUANTITY, fetchCart, saveCartLines } from './api';

/**
 * The saved cart with its edits: every change is uploaded whole and the server's priced answer replaces the
 * shown cart; a refused change keeps the previous cart and says why.
 */
export function useCart() {
  const [cart, setCart] = useState<Cart | null>(null);
  const [state, setState] = useState<LoadState>('loading');
  const [loadError, setLoadError] = useState('');
  const [editError, setEditError] = useState('');
  const [saving, setSaving] = useState(false);
  const cartRef = useRef<Cart | null>(null);
  const setLineCount = useSetAtom(cartLineCountAtom);

  const load = useCallback(() => {
    if (!cartRef.current) setState('loading');
    fetchCart().then(
      (answer) => {
        cartRef.current = answer;
        setCart(answer);
        setLineCount(answer.lines.length);
        setState('ready');
      },
      (reason: unknown) => {
        setLoadError(failureMessage(reason));
        setState('error');
      },
    );
  }, [setLineCount]);

  const save = useCallback(
    (lines: CartLineInput[]) => {
      setSaving(true);
      setEditError('');
      saveCartLines(lines).then(
        (answer) => {
          cartRef.current = answer;
          setCart(answer);
          setLineCount(answer.lines.length);
          setSaving(false);
        },
        (reason: unknown) => {
          setEditError(failureMessage(reason));
          setSaving(false);
        },
      );
    },
    [setLineCount],
  );

  const setQuantity = useCallback(
    (index: number, quantity: number) => {
      const current = cartRef.current;
      if (!current || saving) return;
      const bounded = Math.min(MAX_LINE_QUANTITY, Math.max(MIN_LINE_QUANTITY, quantity));
      if (bounded === current.lines[index]?.quantity) return;
      save(current.lines.map((line, at) => (at === index ? { ...line, quantity: bounded } : line)));
    },
    [save, saving],
  );

  const remove = useCallback(
    (index: number) => {
      const current = cartRef.current;
      if (!current || saving) return;
      save(current.lines.filter((_, at) => at !== index));
    },
    [save, saving],
  );

  return { cart, state, loadError, editError, saving, load, setQuantity, remove };
}
