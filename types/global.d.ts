/// <reference types="@tarojs/taro" />

declare module '*.png';
declare module '*.gif';
declare module '*.jpg';
declare module '*.jpeg';
declare module '*.svg';
declare module '*.css';

/** Build-time constants, defined in config/index.ts from the build's environment. */
declare const LENSMATE_API_BASE: string;
declare const LENSMATE_MESSAGING_HOST: string;
declare const LENSMATE_MESSAGING_APPKEY: string;
declare const LENSMATE_MESSAGING_TLS: string;
declare const LENSMATE_GOOGLE_CLIENT_ID: string;

declare namespace NodeJS {
  interface ProcessEnv {
    TARO_ENV: 'weapp' | 'swan' | 'alipay' | 'h5' | 'rn' | 'tt' | 'quickapp' | 'qq' | 'jd';
    TARO_APP_ID: string;
  }
}
