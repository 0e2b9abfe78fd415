import { currentToken, signOut } from '@/state/customer';
import { withApiBase } from '@/utils/image-url';
import Taro from '@tarojs/taro';
import type { ApiRequest, ApiResponse, GetPath, MultipartPath, PostPath } from '../../types/contract';
import { reportNetworkFailure } from './network';

/**
 * The only caller of Taro.request and Taro.uploadFile (shop-app.md §7 "What the product does with answers"
 * and §8): body status 200 resolves with `data`, 401 ends the login, anything else rejects with the body.
 */

export const TOKEN_HEADER = 'lensmate-token';
export const NETWORK_TIMEOUT_MS = 60_000;
export const LOADING_TOAST_MAX_MS = 30_000;
export const UNAUTHORIZED_RELAUNCH_DELAY_MS = 500;
export const LOGIN_PAGE_URL = '/pages/login/login';
export const UNAUTHORIZED_MESSAGE = 'Unauthorized';
export const UPLOAD_FAILED_MESSAGE = 'Failed to parse server response or get URL';
export const LOADING_TITLE = 'Loading';

/** Every answer of the product API. */
export interface ApiBody<T> {
  status: number;
  msg: string;
  data: T;
}

export interface RequestOptions {
  /** false for background calls (e.g. at app start) that must not cover the page with the loading toast. */
  loading?: boolean;
}

export interface UploadOptions extends RequestOptions {
  /** The name sent with the file; on H5 a chosen image is a nameless blob URL, so give the original name. */
  fileName?: string;
}

/** The answer of the multipart upload endpoints. */
export interface UploadedFile {
  url: string;
  [field: string]: unknown;
}

export function apiUrl(path: string): string {
  return `${LENSMATE_API_BASE}${path}`;
}

/** An image URL ready for <Image src>: relative paths are files on the API server. */
export function imageUrl(url: string): string {
  return withApiBase(url, LENSMATE_API_BASE);
}

let runningWithToast = 0;

function startLoading(options: RequestOptions): () => void {
  if (options.loading === false) return () => undefined;
  if (runningWithToast === 0) {
    Taro.showToast({ title: LOADING_TITLE, icon: 'loading', duration: LOADING_TOAST_MAX_MS, mask: false });
  }
  runningWithToast += 1;
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    runningWithToast -= 1;
    if (runningWithToast === 0) Taro.hideToast();
  };
}

function authHeader(): Record<string, string> {
  const token = currentToken();
  return token ? { [TOKEN_HEADER]: token } : {};
}

function isApiBody(value: unknown): value is ApiBody<unknown> {
  return typeof value === 'object' && value !== null && 'status' in value;
}

let relaunchPending = false;

/** 401 ends the login: the user is forgotten and, once for a burst of 401s, the app relaunches to login. */
function endLogin(reject: (reason: unknown) => void): void {
  signOut();
  if (!relaunchPending) {
    relaunchPending = true;
    setTimeout(() => {
      relaunchPending = false;
      Taro.reLaunch({ url: LOGIN_PAGE_URL });
    }, UNAUTHORIZED_RELAUNCH_DELAY_MS);
  }
  reject(new Error(UNAUTHORIZED_MESSAGE));
}

/**
 * A network failure is logged and the call never settles: the page keeps its state and shows no error. It is
 * counted (core/network), so that what waits on it is released once the connection is back (core/use-network).
 */
function logNetworkFailure(what: string, error: unknown): void {
  console.error(`Network failure: ${what}`, error);
  reportNetworkFailure();
}

function send<T>(method: 'GET' | 'POST', path: string, data: unknown, options: RequestOptions): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const stopLoading = startLoading(options);
    const header: Record<string, string> = { ...authHeader() };
    if (method === 'POST') header['content-type'] = 'application/json';
    Taro.request({
      url: apiUrl(path),
      method,
      data: data as TaroGeneral.IAnyObject,
      header,
      dataType: 'json',
      timeout: NETWORK_TIMEOUT_MS,
    }).then(
      (response) => {
        stopLoading();
        const body: unknown = response.data;
        if (isApiBody(body) && body.status === 200) {
          resolve(body.data as T);
        } else if (isApiBody(body) && body.status === 401) {
          endLogin(reject);
        } else {
          reject(body);
        }
      },
      (error: unknown) => {
        stopLoading();
        logNetworkFailure(`${method} ${path}`, error);
      },
    );
  });
}

/** The request argument: optional when the route needs no field. */
type RequestArgs<R> = R extends Record<string, never>
  ? [request?: R, options?: RequestOptions]
  : Partial<R> extends R
    ? [request?: R, options?: RequestOptions]
    : [request: R, options?: RequestOptions];

/** GET with the query in the URL: only the contract's GET paths; the query and the answer are the route's. */
export function get<P extends GetPath>(path: P, ...[query, options = {}]: RequestArgs<ApiRequest<`GET ${P}`>>) {
  const fields = (query ?? {}) as Record<string, unknown>;
  const defined = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
  return send<ApiResponse<`GET ${P}`>>('GET', path, defined, options);
}

/** POST with a JSON body: only the contract's POST paths; the body and the answer are the route's. */
export function post<P extends PostPath>(path: P, ...[body, options = {}]: RequestArgs<ApiRequest<`POST ${P}`>>) {
  return send<ApiResponse<`POST ${P}`>>('POST', path, body ?? {}, options);
}

function parseUploadBody(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Multipart upload of a local file (field `file`) with the form field `save_to` naming where it goes,
 * e.g. MYPRESCRIPTION. Resolves with the answer's data, which always has a url.
 */
export function upload(
  path: MultipartPath,
  filePath: string,
  saveTo: string,
  options: UploadOptions = {},
): Promise<UploadedFile> {
  return new Promise<UploadedFile>((resolve, reject) => {
    const stopLoading = startLoading(options);
    Taro.uploadFile({
      url: apiUrl(path),
      filePath,
      name: 'file',
      ...(options.fileName ? { fileName: options.fileName } : {}),
      formData: { save_to: saveTo },
      header: authHeader(),
      timeout: NETWORK_TIMEOUT_MS,
    }).then(
      (response) => {
        stopLoading();
        const body = parseUploadBody(response.data);
        if (isApiBody(body) && body.status === 401) {
          endLogin(reject);
          return;
        }
        const uploaded = isApiBody(body) && body.status === 200 ? (body.data as Partial<UploadedFile> | null) : null;
        if (uploaded && typeof uploaded.url === 'string' && uploaded.url !== '') {
          resolve(uploaded as UploadedFile);
        } else {
          reject(new Error(UPLOAD_FAILED_MESSAGE, { cause: body }));
        }
      },
      (error: unknown) => {
        stopLoading();
        logNetworkFailure(`upload ${path}`, error);
      },
    );
  });
}
