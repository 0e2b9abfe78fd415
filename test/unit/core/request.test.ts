import {
  LOADING_TOAST_MAX_MS,
  NETWORK_TIMEOUT_MS,
  TOKEN_HEADER,
  UNAUTHORIZED_MESSAGE,
  UPLOAD_FAILED_MESSAGE,
  get,
  imageUrl,
  post,
  upload,
} from '@/core/request';
import { currentUser, signIn, signOut } from '@/state/customer';
import Taro from '@tarojs/taro';
import type { AddressInput } from '../../../types/api';
import type { GetPath } from '../../../types/contract';

type RequestOptions = Parameters<typeof Taro.request>[0];
type UploadOptions = Parameters<typeof Taro.uploadFile>[0];

const user = { user_id: 7, email: 'ann@example.com', nickname: 'Ann', avatar: '', is_admin: false, token: 'tok-7' };

/** Fakes the network at Taro.request: every call answers with `body` (or fails when body is an Error). */
function answerRequests(body: unknown) {
  const answer = (options: RequestOptions) => {
    if (body instanceof Error) return Promise.reject(body);
    return Promise.resolve({ statusCode: 200, data: body, header: {}, cookies: [], errMsg: 'request:ok', options });
  };
  return jest.spyOn(Taro, 'request').mockImplementation(answer as never);
}

function answerUploads(raw: unknown) {
  const answer = () => {
    if (raw instanceof Error) return Promise.reject(raw);
    return Promise.resolve({ statusCode: 200, data: raw, errMsg: 'ok' });
  };
  return jest.spyOn(Taro, 'uploadFile').mockImplementation(answer as never);
}

/** Whether a promise has settled after pending microtasks ran. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  for (let i = 0; i < 10; i += 1) await Promise.resolve();
  return done;
}

let showToast: jest.SpyInstance;
let hideToast: jest.SpyInstance;
let reLaunch: jest.SpyInstance;

beforeEach(() => {
  Taro.clearStorageSync();
  signOut();
  showToast = jest.spyOn(Taro, 'showToast').mockImplementation((() => Promise.resolve()) as never);
  hideToast = jest.spyOn(Taro, 'hideToast').mockImplementation((() => Promise.resolve()) as never);
  reLaunch = jest.spyOn(Taro, 'reLaunch').mockImplementation((() => Promise.resolve()) as never);
});

afterEach(() => {
  jest.restoreAllMocks();
  jest.useRealTimers();
});

describe('answers', () => {
  it('resolves with data when the body status is 200', async () => {
    answerRequests({ status: 200, msg: 'ok', data: { shop_logo: '/logo.png' } });
    await expect(get('/api/config/shop_config')).resolves.toEqual({ shop_logo: '/logo.png' });
  });

  it('rejects with the whole body for 403', async () => {
    const body = { status: 403, msg: 'Invalid token', data: null };
    answerRequests(body);
    // An incomplete body on purpose: the server's refusal is what is tested.
    await expect(post('/api/user/set_user_address', { first_name: 'A' } as AddressInput)).rejects.toEqual(body);
    expect(reLaunch).not.toHaveBeenCalled();
  });

  it('rejects with the whole body for 500 and for a body without status', async () => {
    answerRequests({ status: 500, msg: 'boom', data: null });
    await expect(get('/api/goods/lens_coating')).rejects.toEqual({ status: 500, msg: 'boom', data: null });
    jest.restoreAllMocks();
    answerRequests('<html>Bad gateway</html>');
    await expect(get('/api/goods/lens_coating')).rejects.toBe('<html>Bad gateway</html>');
  });

  it('on 401 rejects with Unauthorized, ends the login and relaunches to login after 0.5 s', async () => {
    jest.useFakeTimers();
    signIn(user);
    answerRequests({ status: 401, msg: 'Unauthorized', data: null });
    const call = get('/api/order/get_cart');
    await expect(call).rejects.toThrow(UNAUTHORIZED_MESSAGE);
    expect(currentUser()).toBeNull();
    expect(reLaunch).not.toHaveBeenCalled();
    jest.advanceTimersByTime(499);
    expect(reLaunch).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(reLaunch).toHaveBeenCalledTimes(1);
    expect(reLaunch).toHaveBeenCalledWith({ url: '/pages/login/login' });
  });

  it('relaunches once for 401s that arrive together', async () => {
    jest.useFakeTimers();
    answerRequests({ status: 401, msg: 'Unauthorized', data: null });
    const calls = [get('/api/order/get_cart'), post('/api/user/get_user_address'), get('/api/config/get_coupons')];
    for (const call of calls) await expect(call).rejects.toThrow(UNAUTHORIZED_MESSAGE);
    jest.advanceTimersByTime(500);
    expect(reLaunch).toHaveBeenCalledTimes(1);
  });
});

describe('network failure', () => {
  it('hides the loading toast, logs, shows no message and never settles', async () => {
    jest.useFakeTimers();
    const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    answerRequests(new Error('request:fail timeout'));
    const call = post('/api/goods/get_goods_page', { page: 1 });
    expect(await settled(call)).toBe(false);
    expect(hideToast).toHaveBeenCalledTimes(1);
    expect(log).toHaveBeenCalledWith('Network failure: POST /api/goods/get_goods_page', expect.any(Error));
    jest.advanceTimersByTime(2 * NETWORK_TIMEOUT_MS);
    expect(await settled(call)).toBe(false);
    expect(showToast).toHaveBeenCalledTimes(1);
    expect(reLaunch).not.toHaveBeenCalled();
  });
});

describe('what is sent', () => {
  it('sends GET with the query to the API base, a 60 s timeout and no token for a guest', async () => {
    const request = answerRequests({ status: 200, msg: 'ok', data: {} });
    // A field the route does not know, left undefined: it is not sent.
    await get('/api/article/get_article', { id: 3, draft: undefined } as { id: number });
    const options = request.mock.calls[0][0];
    expect(options.url).toBe('http://api.test/api/article/get_article');
    expect(options.method).toBe('GET');
    expect(options.data).toEqual({ id: 3 });
    expect(options.timeout).toBe(NETWORK_TIMEOUT_MS);
    expect(options.header).not.toHaveProperty(TOKEN_HEADER);
  });

  it('sends POST as JSON with the stored token in the lensmate-token header', async () => {
    signIn(user);
    const request = answerRequests({ status: 200, msg: 'ok', data: {} });
    await post('/api/order/delete_order', { order_id: 4 });
    const options = request.mock.calls[0][0];
    expect(options.method).toBe('POST');
    expect(options.data).toEqual({ order_id: 4 });
    expect(options.header).toEqual({ 'lensmate-token': 'tok-7', 'content-type': 'application/json' });
  });

  it('reads the token persisted by an earlier session', async () => {
    Taro.setStorageSync('user', user);
    let freshTaro = Taro;
    let freshRequest: typeof import('@/core/request') | undefined;
    jest.isolateModules(() => {
      freshTaro = require('@tarojs/taro').default;
      freshRequest = require('@/core/request');
    });
    const request = jest
      .spyOn(freshTaro, 'request')
      .mockImplementation((() =>
        Promise.resolve({ statusCode: 200, data: { status: 200, msg: 'ok', data: {} } })) as never);
    jest.spyOn(freshTaro, 'showToast').mockImplementation((() => Promise.resolve()) as never);
    jest.spyOn(freshTaro, 'hideToast').mockImplementation((() => Promise.resolve()) as never);
    await freshRequest?.get('/api/order/get_cart');
    expect(request.mock.calls[0][0].header).toEqual({ 'lensmate-token': 'tok-7' });
  });
});

describe('loading toast', () => {
  it('shows one loading toast of at most 30 s while requests run and hides it when the last one ends', async () => {
    let finish: Array<() => void> = [];
    jest.spyOn(Taro, 'request').mockImplementation(
      (() =>
        new Promise((resolve) => {
          finish.push(() => resolve({ statusCode: 200, data: { status: 200, msg: 'ok', data: 1 } }));
        })) as never,
    );
    const first = get('/a' as GetPath);
    const second = get('/b' as GetPath);
    expect(showToast).toHaveBeenCalledTimes(1);
    expect(showToast).toHaveBeenCalledWith(
      expect.objectContaining({ icon: 'loading', duration: LOADING_TOAST_MAX_MS }),
    );
    finish[0]();
    await first;
    expect(hideToast).not.toHaveBeenCalled();
    finish[1]();
    await second;
    expect(hideToast).toHaveBeenCalledTimes(1);
    finish = [];
  });

  it('shows no toast for background calls', async () => {
    answerRequests({ status: 200, msg: 'ok', data: 1 });
    await get('/api/config/shop_config', undefined, { loading: false });
    expect(showToast).not.toHaveBeenCalled();
    expect(hideToast).not.toHaveBeenCalled();
  });
});

describe('upload', () => {
  it('sends the file in field file with the form field save_to and resolves with data', async () => {
    signIn(user);
    const uploadFile = answerUploads(JSON.stringify({ status: 200, msg: 'ok', data: { url: '/uploads/p.png' } }));
    await expect(upload('/api/goods/save_goods_media_files', 'blob:local/1', 'MYPRESCRIPTION')).resolves.toEqual({
      url: '/uploads/p.png',
    });
    const options = uploadFile.mock.calls[0][0] as UploadOptions;
    expect(options).toEqual(
      expect.objectContaining({
        url: 'http://api.test/api/goods/save_goods_media_files',
        filePath: 'blob:local/1',
        name: 'file',
        formData: { save_to: 'MYPRESCRIPTION' },
        header: { 'lensmate-token': 'tok-7' },
        timeout: NETWORK_TIMEOUT_MS,
      }),
    );
  });

  it('rejects with "Failed to parse server response or get URL" when the answer has no data.url', async () => {
    answerUploads(JSON.stringify({ status: 200, msg: 'ok', data: {} }));
    await expect(upload('/api/goods/save_goods_media_files', 'f', 'GOODS')).rejects.toThrow(UPLOAD_FAILED_MESSAGE);
    expect(UPLOAD_FAILED_MESSAGE).toBe('Failed to parse server response or get URL');
  });

  it('rejects the same way when the answer is not JSON or is an error body', async () => {
    answerUploads('<html>413 Request Entity Too Large</html>');
    await expect(upload('/api/goods/save_goods_media_files', 'f', 'GOODS')).rejects.toThrow(UPLOAD_FAILED_MESSAGE);
    jest.restoreAllMocks();
    answerUploads(JSON.stringify({ status: 400, msg: 'save_to: unknown', data: null }));
    const failure = upload('/api/goods/save_goods_media_files', 'f', 'NOWHERE');
    await expect(failure).rejects.toThrow(UPLOAD_FAILED_MESSAGE);
    await expect(failure).rejects.toHaveProperty('cause', { status: 400, msg: 'save_to: unknown', data: null });
  });

  it('ends the login on 401 like any other call', async () => {
    jest.useFakeTimers();
    signIn(user);
    answerUploads({ status: 401, msg: 'Unauthorized', data: null });
    await expect(upload('/api/goods/save_goods_media_files', 'f', 'GOODS')).rejects.toThrow(UNAUTHORIZED_MESSAGE);
    expect(currentUser()).toBeNull();
    jest.advanceTimersByTime(500);
    expect(reLaunch).toHaveBeenCalledWith({ url: '/pages/login/login' });
  });

  it('never settles on a network failure', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    answerUploads(new Error('uploadFile:fail'));
    const call = upload('/api/goods/save_goods_media_files', 'f', 'GOODS');
    expect(await settled(call)).toBe(false);
    expect(hideToast).toHaveBeenCalledTimes(1);
  });
});

describe('image URLs', () => {
  it('prefix server paths with the build API base and keep absolute URLs', () => {
    expect(imageUrl('/uploads/a.png')).toBe('http://api.test/uploads/a.png');
    expect(imageUrl('https://cdn.example.com/a.png')).toBe('https://cdn.example.com/a.png');
    expect(imageUrl('data:image/png;base64,AA==')).toBe('data:image/png;base64,AA==');
  });
});
