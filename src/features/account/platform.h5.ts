import type { AccountPlatform } from './platform';

export const accountPlatform: AccountPlatform = {
  googleWebSignIn: true,
  wechatSignIn: false,
};
