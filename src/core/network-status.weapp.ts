import Taro from '@tarojs/taro';
import type { watchNetworkStatus as Watch } from './network-status';

export const watchNetworkStatus: typeof Watch = (report) => {
  Taro.getNetworkType()
    .then(({ networkType }) => report(networkType !== 'none'))
    .catch(() => undefined);
  Taro.onNetworkStatusChange(({ isConnected }) => report(isConnected));
};
