import type { AccountPlatform } from './platform';

/** The mini-program loads no third-party page scripts, so Google's button is the web version's only. */
export const accountPlatform: AccountPlatform = {
  googleWebSignIn: false,
  wechatSignIn: true,
};
