import { useRouteRecord } from '@/core/use-route-record';
import { CartButton } from '@/features/cart/CartButton';
import { HOME_EMPTY_MESSAGE, HomeContent } from '@/features/home/HomeContent';
import { HomeHeader } from '@/features/home/HomeHeader';
import { type HomePage, fetchHomePage } from '@/features/home/api';
import { prerenderedHome } from '@/features/home/prerendered';
import { logoAtom } from '@/state/shop';
import { PageTabBar } from '@/ui/tab-bar/PageTabBar';
import { Text, View } from '@tarojs/components';
import { useAtomValue } from 'jotai';
import { useCallback, useEffect, useState } from 'react';

export { HOME_EMPTY_MESSAGE };
export const HOME_ERROR_MESSAGE = 'The shop could not be loaded.';

type HomeState = { kind: 'loading' } | { kind: 'error'; message: string } | { kind: 'ready'; page: HomePage };

function failureText(failure: unknown): string {
  if (typeof failure === 'object' && failure !== null && 'msg' in failure && typeof failure.msg === 'string') {
    return failure.msg;
  }
  return HOME_ERROR_MESSAGE;
}

/** Home starts from the server's prerendered data when there is some (H5), else asks for it. */
function initialState(): HomeState {
  const page = prerenderedHome.take();
  return page ? { kind: 'ready', page } : { kind: 'loading' };
}

export default function Index() {
  useRouteRecord();
  const logo = useAtomValue(logoAtom);
  const [state, setState] = useState<HomeState>(initialState);

  const load = useCallback(() => {
    setState({ kind: 'loading' });
    fetchHomePage().then(
      (page) => setState({ kind: 'ready', page }),
      (failure: unknown) => setState({ kind: 'error', message: failureText(failure) }),
    );
  }, []);

  // Only the first render decides whether home must ask: a prerendered home already has its data.
  const [askAtStart] = useState(() => state.kind === 'loading');
  useEffect(() => {
    if (askAtStart) load();
  }, [askAtStart, load]);

  useEffect(() => {
    // The app's own home is on screen under the prerendered one: take the prerendered markup away.
    if (state.kind !== 'loading') prerenderedHome.release();
  }, [state.kind]);

  return (
    <View className="home">
      <HomeHeader logo={logo} />
      {state.kind === 'loading' && (
        <View className="home__state">
          <Text className="home__state-text">Loading the shop…</Text>
        </View>
      )}
      {state.kind === 'error' && (
        <View className="home__state">
          <Text className="home__state-title">{state.message}</Text>
          <View className="home__retry" onClick={load}>
            <Text>Try again</Text>
          </View>
        </View>
      )}
      {state.kind === 'ready' && <HomeContent page={state.page} />}
      <PageTabBar current="home" />
      <CartButton />
    </View>
  );
}
