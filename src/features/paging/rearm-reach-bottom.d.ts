/**
 * After a list grew, lets the page's reach-bottom fire again at its new end, one file per platform. On H5
 * (rearm-reach-bottom.h5.ts) Taro fires reach-bottom when a scroll event lands near the end and arms it again only
 * with a scroll event farther from it, so a page that grew under a user who stayed at the end (the page that came
 * after "Try again") was left unarmed, and a jump straight to the new end (the End key) asked for nothing. The
 * mini-program (rearm-reach-bottom.weapp.ts) needs nothing: WeChat arms it again as the page grows.
 */
export declare function rearmReachBottom(): void;
