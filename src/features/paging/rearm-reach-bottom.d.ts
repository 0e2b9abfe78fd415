/**
 * After a list grew, lets the page's reach-bottom fire again at its new end, one file per platform. On H5
 * (rearm-reach-bottom.h5.ts) Taro fires reach-bottom when a scroll event lands near the end and arms it again only
 * with a scroll event farther from it, so a page that grew under a user who stayed at the end (the page that came
 * after "Try again") was left unarmed, and one jump straight to the new end (a fast flick, a drag of the scroll bar)
 * asked for nothing. The mini-program (rearm-reach-bottom.weapp.ts) does nothing: its pages scroll by touch, which
 * passes the positions between the two ends (WeChat's own re-arming was not checked).
 */
export declare function rearmReachBottom(): void;
