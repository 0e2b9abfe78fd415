import type { LoadState } from '@/ui/shop/StateView';
import { useDidShow } from '@tarojs/taro';
import { useCallback, useEffect, useRef, useState } from 'react';
import { refusal } from './api';

/**
 * Loads a page's data when it opens and again each time it is shown after another page (so counts and
 * lists are fresh after a change elsewhere); `enabled` false waits (e.g. for login).
 */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[], enabled = true) {
  const [state, setState] = useState<LoadState>('loading');
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState('');
  const shownOnce = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller names what the load depends on
  const run = useCallback(() => {
    if (!enabled) return;
    load().then(
      (value) => {
        setData(value);
        setState('ready');
      },
      (reason: unknown) => {
        setError(refusal(reason, 'Could not load this page'));
        setState('error');
      },
    );
  }, [enabled, ...deps]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: run is the callback that changes with its inputs
  useEffect(run, [run]);
  useDidShow(() => {
    if (shownOnce.current) run();
    shownOnce.current = true;
  });
  return { state, data, error, setData, reload: run };
}
