import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import WebSocket from 'ws';
import type { MiniProgram } from './mini-program';

/** WeChat's cap on sockets open at once. */
export const SOCKET_LIMIT = 5;
/** WeChat's storage: 10 MB per user, 1 MB per key. */
export const STORAGE_LIMIT = 10 * 1024 * 1024;
export const STORAGE_KEY_LIMIT = 1024 * 1024;

type Options = Record<string, unknown> & {
  success?: (result: unknown) => void;
  fail?: (result: unknown) => void;
  complete?: (result: unknown) => void;
};

class ApiFailure extends Error {}

/**
 * The `wx` object of the runner. Network APIs do the real thing against the shop server (the build's API origin
 * is mapped onto the server the test started, as a phone's DNS would); storage, the page stack and the native UI
 * are kept per phone; pickers hand out fixture files; login, payment and subscriptions go to `program.wechat`.
 * Every callback into the app goes through the program's guard, so an error there fails the test.
 */
export function createWx(program: MiniProgram): Record<string, unknown> {
  const sockets = new Set<WebSocket>();
  let tempCounter = 0;
  const tempFiles = new Map<string, string>();
  const userDataPath = 'wxfile://usr';
  mkdirSync(join(program.tempDir, 'usr'), { recursive: true });

  /** Runs an async API the WeChat way: success/fail/complete on a later task, errMsg `name:ok` / `name:fail ...`. */
  /**
   * An asynchronous wx API: the work, then success or fail and complete. As WeChat does, a call with none of the
   * three callbacks returns a Promise instead (Taro calls the APIs it does not promisify itself, requestPayment
   * among them, that way).
   */
  function callAsync(
    name: string,
    options: Options | undefined,
    work: () => Promise<object> | object,
  ): Promise<unknown> | undefined {
    const promiseStyle = !['success', 'fail', 'complete'].some((key) => typeof options?.[key] === 'function');
    let resolvePromise: (value: unknown) => void = () => undefined;
    let rejectPromise: (reason: unknown) => void = () => undefined;
    const promise = promiseStyle
      ? new program.appPromise((resolve: (value: unknown) => void, reject: (reason: unknown) => void) => {
          resolvePromise = resolve;
          rejectPromise = reject;
        })
      : undefined;
    const settle = (key: 'success' | 'fail', result: object) => {
      const answer = program.toApp(result);
      if (promiseStyle) {
        if (key === 'success') resolvePromise(answer);
        else rejectPromise(answer);
        return;
      }
      const callback = options?.[key];
      if (typeof callback === 'function') program.guard(`wx.${name} ${key}`, () => callback(answer));
      const complete = options?.complete;
      if (typeof complete === 'function') program.guard(`wx.${name} complete`, () => complete(answer));
    };
    Promise.resolve()
      .then(work)
      .then(
        (result) => program.later(`wx.${name}`, () => settle('success', { errMsg: `${name}:ok`, ...result })),
        (error: unknown) => {
          const reason = error instanceof ApiFailure ? error.message : `${(error as Error)?.message ?? error}`;
          program.later(`wx.${name}`, () => settle('fail', { errMsg: `${name}:fail ${reason}` }));
        },
      );
    return promise;
  }

  /** The build's API origin, and only it, reaches the shop server (WeChat's request domain list). */
  function toServer(url: string, name: string): string {
    const origin = program.apiOrigin;
    const wsOrigin = origin.replace(/^http/, 'ws');
    if (url.startsWith(origin)) return program.server + url.slice(origin.length);
    if (url.startsWith(wsOrigin)) return program.server.replace(/^http/, 'ws') + url.slice(wsOrigin.length);
    throw new ApiFailure(`url not in domain list: ${url} (${name})`);
  }

  function localFile(path: string): string {
    const temp = tempFiles.get(path);
    if (temp) return temp;
    if (path.startsWith(`${userDataPath}/`)) return join(program.tempDir, 'usr', path.slice(userDataPath.length + 1));
    throw new ApiFailure(`no such file or directory ${path}`);
  }

  function newTempFile(source: string | Buffer, ext: string): { path: string; size: number } {
    tempCounter += 1;
    const path = `wxfile://tmp_${tempCounter}${ext}`;
    const real = join(program.tempDir, `tmp_${tempCounter}${ext}`);
    if (typeof source === 'string') copyFileSync(source, real);
    else writeFileSync(real, source);
    tempFiles.set(path, real);
    return { path, size: statSync(real).size };
  }

  function headersOf(response: Response): Record<string, string> {
    return Object.fromEntries(response.headers.entries());
  }

  function withQuery(url: string, data: unknown): string {
    if (!data || typeof data !== 'object') return data ? `${url}${url.includes('?') ? '&' : '?'}${data}` : url;
    const search = Object.entries(data as Record<string, unknown>)
      .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`)
      .join('&');
    return search ? `${url}${url.includes('?') ? '&' : '?'}${search}` : url;
  }

  const wechatHeaders = () => ({
    referer: `https://servicewechat.com/${program.user.appid}/devtools/page-frame.html`,
    'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 16_0 like Mac OS X) MicroMessenger/8.0.50 miniProgram',
  });

  const request = (options: Options) => {
    const controller = new AbortController();
    callAsync('request', options, async () => {
      const method = String(options.method ?? 'GET').toUpperCase();
      const header = { ...wechatHeaders(), ...((options.header as Record<string, string>) ?? {}) };
      const contentType =
        Object.entries(header).find(([key]) => key.toLowerCase() === 'content-type')?.[1] ?? 'application/json';
      let url = toServer(String(options.url), 'request');
      let body: string | Blob | undefined;
      if (method === 'GET' || method === 'HEAD') {
        url = withQuery(url, options.data);
      } else if (options.data instanceof ArrayBuffer || ArrayBuffer.isView(options.data)) {
        body = new Blob([new Uint8Array(options.data as ArrayBuffer)]);
      } else if (typeof options.data === 'string') {
        body = options.data;
      } else if (options.data !== undefined) {
        body = contentType.includes('application/x-www-form-urlencoded')
          ? withQuery('', options.data).slice(1)
          : JSON.stringify(options.data);
      }
      const timeout = setTimeout(() => controller.abort(), Number(options.timeout ?? 60_000));
      try {
        const response = await fetch(url, { method, headers: header, body, signal: controller.signal });
        const raw = Buffer.from(await response.arrayBuffer());
        let data: unknown;
        if (options.responseType === 'arraybuffer') {
          data = new Uint8Array(raw).buffer;
        } else {
          data = raw.toString('utf8');
          if ((options.dataType ?? 'json') === 'json') {
            try {
              data = JSON.parse(data as string);
            } catch {
              // WeChat hands over the text when it is not JSON
            }
          }
        }
        return { data, statusCode: response.status, header: headersOf(response), cookies: [] };
      } catch (error) {
        throw new ApiFailure(controller.signal.aborted ? 'timeout' : String((error as Error).message));
      } finally {
        clearTimeout(timeout);
      }
    });
    return { abort: () => controller.abort(), onHeadersReceived: () => undefined, offHeadersReceived: () => undefined };
  };

  const uploadFile = (options: Options) => {
    callAsync('uploadFile', options, async () => {
      const file = localFile(String(options.filePath));
      const form = new FormData();
      for (const [key, value] of Object.entries((options.formData as Record<string, unknown>) ?? {})) {
        form.append(key, String(value));
      }
      form.append(String(options.name ?? 'file'), new Blob([readFileSync(file)]), basename(file));
      const response = await fetch(toServer(String(options.url), 'uploadFile'), {
        method: 'POST',
        headers: { ...wechatHeaders(), ...((options.header as Record<string, string>) ?? {}) },
        body: form,
      });
      return { data: await response.text(), statusCode: response.status, header: headersOf(response) };
    });
    return { abort: () => undefined, onProgressUpdate: () => undefined, offProgressUpdate: () => undefined };
  };

  const downloadFile = (options: Options) => {
    callAsync('downloadFile', options, async () => {
      const response = await fetch(toServer(String(options.url), 'downloadFile'), {
        headers: { ...wechatHeaders(), ...((options.header as Record<string, string>) ?? {}) },
      });
      const bytes = Buffer.from(await response.arrayBuffer());
      const ext = extname(new URL(String(options.url)).pathname) || '';
      const saved = newTempFile(bytes, ext);
      return { tempFilePath: saved.path, statusCode: response.status };
    });
    return { abort: () => undefined, onProgressUpdate: () => undefined, offProgressUpdate: () => undefined };
  };

  const connectSocket = (options: Options) => {
    type Listener = (result: unknown) => void;
    const listeners: Record<'open' | 'message' | 'error' | 'close', Listener[]> = {
      open: [],
      message: [],
      error: [],
      close: [],
    };
    const emit = (kind: keyof typeof listeners, result: unknown) => {
      const answer = program.toApp(result);
      for (const listener of [...listeners[kind]]) program.guard(`SocketTask on${kind}`, () => listener(answer));
    };
    const task = {
      readyState: 0,
      CONNECTING: 0,
      OPEN: 1,
      CLOSING: 2,
      CLOSED: 3,
      onOpen: (listener: Listener) => listeners.open.push(listener),
      onMessage: (listener: Listener) => listeners.message.push(listener),
      onError: (listener: Listener) => listeners.error.push(listener),
      onClose: (listener: Listener) => listeners.close.push(listener),
      send: (sendOptions: Options) => {
        callAsync('sendSocketMessage', sendOptions, () => {
          if (!socket || socket.readyState !== WebSocket.OPEN) throw new ApiFailure('WebSocket is not connected');
          const data = sendOptions.data;
          socket.send(typeof data === 'string' ? data : Buffer.from(data as ArrayBuffer));
          return {};
        });
      },
      close: (closeOptions: Options = {}) => {
        callAsync('closeSocket', closeOptions, () => {
          socket?.close(Number(closeOptions.code ?? 1000), String(closeOptions.reason ?? ''));
          return {};
        });
      },
    };
    let socket: WebSocket | null = null;
    if (sockets.size >= SOCKET_LIMIT) {
      callAsync('connectSocket', options, () => {
        throw new ApiFailure(`exceed max task count ${SOCKET_LIMIT}`);
      });
      return task;
    }
    let url: string;
    try {
      url = toServer(String(options.url), 'connectSocket');
    } catch (error) {
      callAsync('connectSocket', options, () => {
        throw error;
      });
      return task;
    }
    // The server sees the host the mini-program dialled (as behind a real domain; over wss, as the TLS proxy in
    // front of the server says), not the loopback port the runner maps it to: it builds upload URLs from it.
    const dialled = new URL(String(options.url));
    const open = new WebSocket(url, (options.protocols as string[]) ?? [], {
      headers: {
        ...wechatHeaders(),
        host: dialled.host,
        ...(dialled.protocol === 'wss:' ? { 'x-forwarded-proto': 'https' } : {}),
        ...((options.header as Record<string, string>) ?? {}),
      },
    });
    socket = open;
    open.binaryType = 'arraybuffer';
    sockets.add(open);
    const forget = program.onClose(() => open.terminate());
    open.on('open', () => {
      task.readyState = 1;
      program.later('SocketTask onOpen', () => emit('open', { header: {}, profile: {} }));
    });
    open.on('message', (data: Buffer | ArrayBuffer, isBinary: boolean) => {
      const payload = isBinary ? data : Buffer.from(data as ArrayBuffer).toString('utf8');
      program.later('SocketTask onMessage', () =>
        emit('message', {
          data: typeof payload === 'string' ? payload : new Uint8Array(payload as ArrayBuffer).slice().buffer,
        }),
      );
    });
    open.on('error', (error) => {
      program.later('SocketTask onError', () => emit('error', { errMsg: String(error.message) }));
    });
    open.on('close', (code, reason) => {
      task.readyState = 3;
      sockets.delete(open);
      forget();
      program.later('SocketTask onClose', () => emit('close', { code, reason: reason.toString() }));
    });
    callAsync('connectSocket', options, () => ({}));
    return task;
  };

  // ---- storage ----

  function storageSize(): number {
    let size = 0;
    for (const [key, value] of program.storage) size += key.length + value.length;
    return size;
  }

  function setStorageSync(key: string, data: unknown): void {
    if (typeof key !== 'string' || key === '') throw new Error('setStorageSync:fail parameter error: key');
    const value = JSON.stringify({ data });
    if (value.length > STORAGE_KEY_LIMIT) throw new Error('setStorageSync:fail entry size limit reached');
    const before = program.storage.get(key)?.length ?? 0;
    if (storageSize() - before + value.length > STORAGE_LIMIT) {
      throw new Error('setStorageSync:fail exceed storage max size 10MB');
    }
    program.storage.set(key, value);
  }

  function getStorageSync(key: string): unknown {
    const value = program.storage.get(key);
    return value === undefined ? '' : program.toApp((JSON.parse(value) as { data: unknown }).data);
  }

  // ---- native UI ----

  let toastTimer: NodeJS.Timeout | undefined;
  program.onClose(() => clearTimeout(toastTimer));
  function showToast(options: Options) {
    const toast = { title: String(options.title ?? ''), icon: String(options.icon ?? 'success') };
    program.toasts.push(toast);
    program.toastShown = toast;
    program.loadingShown = null;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(
      () => {
        if (program.toastShown === toast) program.toastShown = null;
      },
      Number(options.duration ?? 1500),
    );
    callAsync('showToast', options, () => ({}));
  }

  function showModal(options: Options) {
    callAsync(
      'showModal',
      options,
      () =>
        new Promise<object>((resolve) => {
          const modal = {
            title: String(options.title ?? ''),
            content: String(options.content ?? ''),
            showCancel: options.showCancel !== false,
            confirmText: String(options.confirmText ?? '确定'),
            cancelText: String(options.cancelText ?? '取消'),
            answer: (confirm: boolean, content?: string) => {
              program.modals.splice(program.modals.indexOf(modal), 1);
              resolve({ confirm, cancel: !confirm, ...(options.editable ? { content: content ?? '' } : {}) });
            },
          };
          program.modals.push(modal);
        }),
    );
  }

  function chooseFiles(name: string, options: Options, shape: (files: { path: string; size: number }[]) => object) {
    callAsync(name, options, () => {
      const count = Number(options.count ?? 9);
      const picked = program.mediaToPick.splice(0, count);
      if (picked.length === 0) throw new ApiFailure('cancel');
      return shape(picked.map((file) => newTempFile(file, extname(file))));
    });
  }

  const succeed =
    (name: string, result: (options: Options) => object = () => ({})) =>
    (options: Options = {}) =>
      callAsync(name, options, () => result(options));

  const systemInfo = {
    brand: 'iPhone',
    model: 'iPhone 13',
    pixelRatio: 3,
    screenWidth: 390,
    screenHeight: 844,
    windowWidth: 390,
    windowHeight: 753,
    statusBarHeight: 47,
    language: 'en',
    version: '8.0.50',
    system: 'iOS 16.0',
    platform: 'ios',
    fontSizeSetting: 16,
    SDKVersion: '3.6.0',
    benchmarkLevel: 1,
    theme: 'light',
    safeArea: { left: 0, right: 390, top: 47, bottom: 810, width: 390, height: 763 },
    enableDebug: false,
    deviceOrientation: 'portrait',
  };

  const selectorQuery = () => {
    const pending: unknown[] = [];
    const query = {
      in: () => query,
      select: () => nodes,
      selectAll: () => nodes,
      selectViewport: () => nodes,
      exec: (callback?: (results: unknown[]) => void) => {
        const results = pending.splice(0);
        if (callback) program.later('SelectorQuery exec', () => callback(program.toApp(results)));
      },
    };
    const nodes = {
      boundingClientRect: () => {
        pending.push(null);
        return query;
      },
      scrollOffset: () => {
        pending.push(null);
        return query;
      },
      fields: () => {
        pending.push(null);
        return query;
      },
      node: () => {
        pending.push(null);
        return query;
      },
    };
    return query;
  };

  const fileSystem = {
    readFile: (options: Options) =>
      callAsync('readFile', options, () => {
        const bytes = readFileSync(localFile(String(options.filePath)));
        return { data: options.encoding ? bytes.toString(options.encoding as BufferEncoding) : bytes.buffer };
      }),
    readFileSync: (path: string, encoding?: BufferEncoding) => {
      const bytes = readFileSync(localFile(path));
      return encoding ? bytes.toString(encoding) : new Uint8Array(bytes).buffer;
    },
    writeFile: (options: Options) =>
      callAsync('writeFile', options, () => {
        writeFileSync(localFile(String(options.filePath)), options.data as string);
        return {};
      }),
    access: (options: Options) =>
      callAsync('access', options, () => {
        if (!existsSync(localFile(String(options.path)))) throw new ApiFailure('no such file or directory');
        return {};
      }),
    unlink: (options: Options) =>
      callAsync('unlink', options, () => {
        rmSync(localFile(String(options.filePath)));
        return {};
      }),
  };

  const noop = () => undefined;
  return {
    env: { USER_DATA_PATH: userDataPath },
    request,
    uploadFile,
    downloadFile,
    connectSocket,

    setStorageSync,
    getStorageSync,
    removeStorageSync: (key: string) => void program.storage.delete(key),
    clearStorageSync: () => program.storage.clear(),
    getStorageInfoSync: () => ({
      keys: [...program.storage.keys()],
      currentSize: Math.ceil(storageSize() / 1024),
      limitSize: STORAGE_LIMIT / 1024,
    }),
    setStorage: (options: Options) =>
      callAsync('setStorage', options, () => {
        setStorageSync(String(options.key), options.data);
        return {};
      }),
    getStorage: (options: Options) =>
      callAsync('getStorage', options, () => {
        if (!program.storage.has(String(options.key))) throw new ApiFailure('data not found');
        return { data: getStorageSync(String(options.key)) };
      }),
    removeStorage: (options: Options) =>
      callAsync('removeStorage', options, () => {
        program.storage.delete(String(options.key));
        return {};
      }),
    clearStorage: (options: Options) =>
      callAsync('clearStorage', options, () => {
        program.storage.clear();
        return {};
      }),

    navigateTo: (options: Options) => navigation('navigateTo', options),
    redirectTo: (options: Options) => navigation('redirectTo', options),
    switchTab: (options: Options) => navigation('switchTab', options),
    reLaunch: (options: Options) => navigation('reLaunch', options),
    navigateBack: (options: Options = {}) =>
      callAsync('navigateBack', options, () => {
        const refused = program.navigateBack(Number(options.delta ?? 1));
        if (refused) throw new ApiFailure(refused);
        return {};
      }),

    showToast,
    hideToast: succeed('hideToast', () => {
      program.toastShown = null;
      return {};
    }),
    showLoading: succeed('showLoading', (options) => {
      program.loadingShown = String(options.title ?? '');
      return {};
    }),
    hideLoading: succeed('hideLoading', () => {
      program.loadingShown = null;
      return {};
    }),
    showModal,
    showActionSheet: (options: Options) =>
      callAsync(
        'showActionSheet',
        options,
        () =>
          new Promise<object>((resolve, reject) => {
            const sheet = {
              items: ((options.itemList as string[]) ?? []).map(String),
              choose: (index: number | null) => {
                program.actionSheets.splice(program.actionSheets.indexOf(sheet), 1);
                if (index === null) reject(new ApiFailure('cancel'));
                else resolve({ tapIndex: index });
              },
            };
            program.actionSheets.push(sheet);
          }),
      ),
    setNavigationBarTitle: succeed('setNavigationBarTitle', (options) => {
      const page = program.top();
      if (page) page.title = String(options.title ?? '');
      return {};
    }),
    setNavigationBarColor: succeed('setNavigationBarColor'),
    showNavigationBarLoading: succeed('showNavigationBarLoading'),
    hideNavigationBarLoading: succeed('hideNavigationBarLoading'),
    setTabBarBadge: succeed('setTabBarBadge', (options) => {
      program.tabBarBadge = String(options.text ?? '');
      return {};
    }),
    removeTabBarBadge: succeed('removeTabBarBadge', () => {
      program.tabBarBadge = null;
      return {};
    }),
    showTabBarRedDot: succeed('showTabBarRedDot'),
    hideTabBarRedDot: succeed('hideTabBarRedDot'),
    showTabBar: succeed('showTabBar'),
    hideTabBar: succeed('hideTabBar'),
    pageScrollTo: succeed('pageScrollTo'),
    startPullDownRefresh: succeed('startPullDownRefresh'),
    stopPullDownRefresh: succeed('stopPullDownRefresh'),
    hideKeyboard: succeed('hideKeyboard'),
    vibrateShort: succeed('vibrateShort'),
    vibrateLong: succeed('vibrateLong'),
    setClipboardData: succeed('setClipboardData', (options) => {
      program.clipboard = String(options.data ?? '');
      return {};
    }),
    getClipboardData: succeed('getClipboardData', () => ({ data: program.clipboard })),
    previewImage: succeed('previewImage'),
    makePhoneCall: succeed('makePhoneCall'),
    saveImageToPhotosAlbum: succeed('saveImageToPhotosAlbum'),
    openLocation: succeed('openLocation'),
    chooseLocation: (options: Options) =>
      callAsync('chooseLocation', options, () => {
        throw new ApiFailure('cancel');
      }),
    getLocation: (options: Options) =>
      callAsync('getLocation', options, () => {
        throw new ApiFailure('auth deny');
      }),

    chooseImage: (options: Options) =>
      chooseFiles('chooseImage', options, (files) => ({
        tempFilePaths: files.map((file) => file.path),
        tempFiles: files,
      })),
    chooseMedia: (options: Options) =>
      chooseFiles('chooseMedia', options, (files) => ({
        type: 'image',
        tempFiles: files.map((file) => ({
          tempFilePath: file.path,
          size: file.size,
          fileType: /\.(mp4|mov)$/i.test(file.path) ? 'video' : 'image',
          thumbTempFilePath: '',
          width: 0,
          height: 0,
          duration: 0,
        })),
      })),
    // As WeChat: the video, and the frame it took of it with the video's size (the phone's fixture gives the frame).
    chooseVideo: (options: Options) =>
      callAsync('chooseVideo', options, () => {
        const [picked] = program.mediaToPick.splice(0, 1);
        if (!picked) throw new ApiFailure('cancel');
        const video = newTempFile(picked, extname(picked));
        const poster = program.videoPosters.get(picked);
        return {
          tempFilePath: video.path,
          size: video.size,
          duration: 1,
          width: poster?.width ?? 0,
          height: poster?.height ?? 0,
          ...(poster ? { thumbTempFilePath: newTempFile(poster.path, extname(poster.path)).path } : {}),
        };
      }),
    chooseMessageFile: (options: Options) =>
      chooseFiles('chooseMessageFile', options, (files) => ({
        tempFiles: files.map((file) => ({ path: file.path, size: file.size, name: basename(file.path), type: 'file' })),
      })),
    getImageInfo: (options: Options) =>
      callAsync('getImageInfo', options, () => ({ width: 0, height: 0, path: String(options.src), type: 'unknown' })),
    getFileSystemManager: () => fileSystem,
    arrayBufferToBase64: (buffer: ArrayBuffer) => Buffer.from(buffer).toString('base64'),
    base64ToArrayBuffer: (text: string) => new Uint8Array(Buffer.from(text, 'base64')).buffer,

    login: (options: Options) => callAsync('login', options, () => ({ code: program.wechat.login(program.user) })),
    checkSession: succeed('checkSession'),
    requestPayment: (options: Options) =>
      callAsync('requestPayment', options, async () => {
        const fields = ['timeStamp', 'nonceStr', 'package', 'signType', 'paySign'] as const;
        const missing = fields.filter((field) => typeof options[field] !== 'string' || options[field] === '');
        if (missing.length) throw new ApiFailure(`parameter error: ${missing.join(', ')} should be a non-empty String`);
        const request = Object.fromEntries(fields.map((field) => [field, String(options[field])]));
        const outcome = await program.wechat.requestPayment(request as never, program.user);
        if (outcome === 'fail') throw new ApiFailure('the payment could not be made');
        if (outcome !== 'paid') throw new ApiFailure('cancel');
        return {};
      }),
    requestSubscribeMessage: (options: Options) =>
      callAsync('requestSubscribeMessage', options, () => {
        const ids = options.tmplIds;
        if (!Array.isArray(ids) || ids.length === 0) throw new ApiFailure('TmplIds can not be empty');
        return program.wechat.requestSubscribe(ids.map(String), program.user);
      }),

    getSystemInfoSync: () => program.toApp(systemInfo),
    getSystemInfo: succeed('getSystemInfo', () => systemInfo),
    getWindowInfo: () => program.toApp(systemInfo),
    getDeviceInfo: () => program.toApp(systemInfo),
    getAppBaseInfo: () => program.toApp(systemInfo),
    getSystemSetting: () => program.toApp({ bluetoothEnabled: false, locationEnabled: false, wifiEnabled: true }),
    getAppAuthorizeSetting: () => program.toApp({}),
    getMenuButtonBoundingClientRect: () =>
      program.toApp({ width: 87, height: 32, top: 51, right: 383, bottom: 83, left: 296 }),
    getAccountInfoSync: () =>
      program.toApp({ miniProgram: { appId: program.user.appid, envVersion: 'develop', version: '' } }),
    getLaunchOptionsSync: () => program.toApp({ path: program.appJson.pages[0], query: {}, scene: 1001 }),
    getEnterOptionsSync: () => program.toApp({ path: program.appJson.pages[0], query: {}, scene: 1001 }),
    getNetworkType: succeed('getNetworkType', () => ({ networkType: 'wifi' })),
    canIUse: () => true,
    nextTick: (callback: () => void) => program.later('wx.nextTick', callback),
    createSelectorQuery: selectorQuery,
    createIntersectionObserver: () => {
      const observer = {
        relativeTo: () => observer,
        relativeToViewport: () => observer,
        observe: noop,
        disconnect: noop,
      };
      return observer;
    },
    createInnerAudioContext: () => ({
      src: '',
      play: noop,
      pause: noop,
      stop: noop,
      destroy: noop,
      onPlay: noop,
      onEnded: noop,
      onError: noop,
      onStop: noop,
      offEnded: noop,
    }),
    getUpdateManager: () => ({
      onCheckForUpdate: noop,
      onUpdateReady: noop,
      onUpdateFailed: noop,
      applyUpdate: noop,
    }),
    onAppShow: noop,
    offAppShow: noop,
    onAppHide: noop,
    offAppHide: noop,
    onError: noop,
    offError: noop,
    onUnhandledRejection: noop,
    offUnhandledRejection: noop,
    onPageNotFound: noop,
    offPageNotFound: noop,
    onMemoryWarning: noop,
    onThemeChange: noop,
    offThemeChange: noop,
    onNetworkStatusChange: noop,
    offNetworkStatusChange: noop,
    onWindowResize: noop,
    offWindowResize: noop,
    onKeyboardHeightChange: noop,
    offKeyboardHeightChange: noop,
    reportAnalytics: noop,
    reportEvent: noop,
  };

  function navigation(kind: 'navigateTo' | 'redirectTo' | 'switchTab' | 'reLaunch', options: Options) {
    callAsync(kind, options, () => {
      const refused = program.navigate(kind, String(options.url ?? ''));
      if (refused) throw new ApiFailure(refused);
      return {};
    });
  }
}
