/**
 * A local fake of WeChat's server API for the mini-program (https://api.weixin.qq.com), as the shop calls it:
 * code2Session (`GET /sns/jscode2session`), which exchanges a wx.login code for the user's openid; the access token
 * (`GET /cgi-bin/token`, client_credential) and template messages (`POST /cgi-bin/message/template/send`), which
 * it keeps in `templateMessages` as WeChat would deliver them. Codes are what
 * WeChat's client hands out: `issueCode` is the phone's side of wx.login (the headless runner's `wx.login` calls
 * it), each code valid once for five minutes and only for the appid it was issued under. Answers and error codes
 * are WeChat's (40029 invalid code, 40163 code been used, 40013 invalid appid, 40125 invalid appsecret).
 */
import { randomBytes } from 'node:crypto';
import { FakeServer, json } from './http-kit';

export interface WeChatFakeKeys {
  /** The mini-program's appid (wx + 16 hex digits) and its AppSecret. */
  appid: string;
  secret: string;
}

export interface WeChatIdentity {
  appid: string;
  openid: string;
}

const CODE_TTL_MS = 5 * 60_000;

export class WeChatFake {
  private readonly server = new FakeServer();
  private readonly codes = new Map<string, WeChatIdentity & { issuedAt: number }>();
  private readonly usedCodes = new Set<string>();
  /** Every code2Session call, with the answer's errcode (0 on success), for the tests. */
  readonly exchanges: { code: string; errcode: number }[] = [];
  /** Template messages WeChat accepted, as sent (touser, template_id, miniprogram, data). */
  readonly templateMessages: Record<string, any>[] = [];
  private readonly accessTokens = new Set<string>();

  constructor(readonly keys: WeChatFakeKeys) {
    this.server.on('GET', '/sns/jscode2session', (request) => {
      const appid = request.query.get('appid') ?? '';
      const secret = request.query.get('secret') ?? '';
      const code = request.query.get('js_code') ?? '';
      const answer = this.codeToSession(appid, secret, code, request.query.get('grant_type') ?? '');
      this.exchanges.push({ code, errcode: 'errcode' in answer ? (answer.errcode ?? 0) : 0 });
      return json(200, answer);
    });
    this.server.on('GET', '/cgi-bin/token', (request) => {
      const q = request.query;
      if (q.get('grant_type') !== 'client_credential')
        return json(200, { errcode: 40002, errmsg: 'invalid grant_type' });
      if (q.get('appid') !== this.keys.appid) return json(200, { errcode: 40013, errmsg: 'invalid appid' });
      if (q.get('secret') !== this.keys.secret) return json(200, { errcode: 40125, errmsg: 'invalid appsecret' });
      const token = randomBytes(24).toString('base64url');
      this.accessTokens.add(token);
      return json(200, { access_token: token, expires_in: 7200 });
    });
    this.server.on('POST', '/cgi-bin/message/template/send', (request) => {
      if (!this.accessTokens.has(request.query.get('access_token') ?? '')) {
        return json(200, { errcode: 40001, errmsg: 'invalid credential, access_token is invalid or not latest' });
      }
      const body = JSON.parse(request.raw || '{}') as Record<string, any>;
      if (typeof body.touser !== 'string' || body.touser === '')
        return json(200, { errcode: 40003, errmsg: 'invalid openid' });
      if (typeof body.template_id !== 'string' || body.template_id === '') {
        return json(200, { errcode: 40037, errmsg: 'invalid template_id' });
      }
      this.templateMessages.push(body);
      return json(200, { errcode: 0, errmsg: 'ok', msgid: Date.now() });
    });
  }

  get origin(): string {
    return this.server.origin;
  }

  start(host = '127.0.0.1'): Promise<string> {
    return this.server.listen(host);
  }

  close(): Promise<void> {
    return this.server.close();
  }

  /** wx.login on a phone signed in to WeChat as `user`: a fresh code for this mini-program. */
  issueCode(user: WeChatIdentity): string {
    const code = randomBytes(16).toString('base64url');
    this.codes.set(code, { ...user, issuedAt: Date.now() });
    return code;
  }

  /** A new WeChat user's openid, as WeChat makes them (28 characters, starting with o). */
  static newOpenid(): string {
    return `o${randomBytes(21).toString('base64url')}`;
  }

  private codeToSession(appid: string, secret: string, code: string, grantType: string) {
    if (appid !== this.keys.appid) return { errcode: 40013, errmsg: 'invalid appid' };
    if (secret !== this.keys.secret) return { errcode: 40125, errmsg: 'invalid appsecret' };
    if (grantType !== 'authorization_code') return { errcode: 40002, errmsg: 'invalid grant_type' };
    if (this.usedCodes.has(code)) return { errcode: 40163, errmsg: 'code been used' };
    const issued = this.codes.get(code);
    if (!issued || issued.appid !== appid || Date.now() - issued.issuedAt > CODE_TTL_MS) {
      return { errcode: 40029, errmsg: 'invalid code' };
    }
    this.codes.delete(code);
    this.usedCodes.add(code);
    return { openid: issued.openid, session_key: randomBytes(16).toString('base64') };
  }
}

/** A mini-program account for the fake: an appid of WeChat's shape and a random AppSecret. */
export function newWeChatKeys(): WeChatFakeKeys {
  return { appid: `wx${randomBytes(8).toString('hex')}`, secret: randomBytes(16).toString('hex') };
}
