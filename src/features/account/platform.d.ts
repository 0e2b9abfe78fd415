/** Where signing in differs, one file per platform: `platform.h5.ts` and `platform.weapp.ts`. */
export interface AccountPlatform {
  /** Whether Google's web sign-in (Google Identity Services, a script in a browser page) can run here. */
  googleWebSignIn: boolean;
  /** Whether wx.login exists here (the mini-program): "Sign in with WeChat" is offered. */
  wechatSignIn: boolean;
}

export declare const accountPlatform: AccountPlatform;
