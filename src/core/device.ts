import { type DeviceTraits, deviceIdFromTraits } from '@/utils/device-id';
import Taro from '@tarojs/taro';

/** Traits of the browser or device that stay the same across visits; no single one identifies the user. */
export function collectDeviceTraits(): DeviceTraits {
  const info = Taro.getSystemInfoSync();
  return {
    brand: info.brand ?? '',
    model: info.model ?? '',
    system: info.system ?? '',
    platform: info.platform ?? '',
    language: info.language ?? '',
    pixelRatio: info.pixelRatio ?? 0,
    screenWidth: info.screenWidth ?? 0,
    screenHeight: info.screenHeight ?? 0,
    timezoneOffset: new Date().getTimezoneOffset(),
  };
}

/** The device id: the hashed traits (shop-app.md §3). */
export function deviceId(): string {
  return deviceIdFromTraits(collectDeviceTraits());
}
