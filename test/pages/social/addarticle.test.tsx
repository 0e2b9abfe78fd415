import { signIn } from '@/state/customer';
import Taro from '@tarojs/taro';
import { fakeApi, mountPages, ok, page, see, shows, tap, typeInto, waitForPath } from '../account/harness';

const admin = {
  user_id: 1,
  email: 'admin@lensmate.test',
  nickname: 'Admin',
  avatar: '',
  is_admin: true,
  token: 'tok-admin',
};
let calls: ReturnType<typeof fakeApi>;
let toast: jest.SpyInstance;
let chooseImage: jest.SpyInstance;
let uploaded = 0;

function picked(...names: string[]) {
  return {
    tempFilePaths: names.map((name) => `blob:${name}`),
    tempFiles: names.map((name) => ({ path: `blob:${name}`, size: 10, originalFileObj: { name } })),
  };
}

function toastTitles(): string[] {
  return toast.mock.calls.map(([options]) => options.title as string);
}

beforeAll(async () => {
  Taro.clearStorageSync();
  signIn(admin);
  calls = fakeApi({
    '/api/config/shop_config': ok({ shop_name: 'Lensmate', shop_logo: '' }),
    '/api/article/get_article_category': ok([
      { category_id: 1, category_name: 'Guides' },
      { category_id: 2, category_name: 'Style' },
    ]),
    '/api/article/insert_article': (data: any) =>
      ok({ ...data, article_id: 42, author: null, created_at: 1, updated_at: 1 }),
    '/api/article/get_article': ok({
      article_id: 42,
      title: 'Frames for round faces',
      cover: '/uploads/article/cover.png',
      imgsUrl: ['/uploads/article/a.png'],
      content: '<p>Hello</p>',
      category_id: 2,
      author: null,
      created_at: 1,
      updated_at: 1,
    }),
    '/api/social/likes': ok({ liked: false, likes: 0 }),
    '/api/social/comments': ok({ list: [], total: 0, page: 1, page_size: 20 }),
  });
  toast = jest.spyOn(Taro, 'showToast');
  chooseImage = jest.spyOn(Taro, 'chooseImage');
  jest.spyOn(Taro, 'uploadFile').mockImplementation(((options: Taro.uploadFile.Option) => {
    uploaded += 1;
    expect(options.formData).toEqual({ save_to: 'ARTICLE' });
    const body = { status: 200, msg: 'ok', data: { url: `/uploads/article/${uploaded}-${options.fileName}` } };
    return Promise.resolve({ statusCode: 200, data: JSON.stringify(body), errMsg: 'uploadFile:ok' });
  }) as never);
  await mountPages('/pages/addarticle/addarticle-main');
});

it('refuses to go on without a title: 请填写标题~', async () => {
  await see('Cover');
  toast.mockClear();
  await tap('Next');
  expect(toastTitles()).toContain('请填写标题~');
  expect(window.location.hash).toContain('/pages/addarticle/addarticle-main');
});

it('refuses to go on without a cover or carousel: 封面或轮播图不能为空~', async () => {
  await typeInto(page(), 'title', 'Frames for round faces');
  toast.mockClear();
  await tap('Next');
  expect(toastTitles()).toContain('封面或轮播图不能为空~');

  chooseImage.mockResolvedValueOnce(picked('cover.png'));
  await tap('+ Choose a cover');
  await waitFor(() => page().querySelector('.addarticle__cover-image') !== null);
  toast.mockClear();
  await tap('Next');
  expect(toastTitles()).toContain('封面或轮播图不能为空~');
});

it('shows the album permission message when the picker is refused', async () => {
  chooseImage.mockRejectedValueOnce({ errMsg: 'chooseImage:fail auth deny' });
  toast.mockClear();
  await tap('+ Add images');
  await waitFor(() => toastTitles().includes('未授权访问相册权限，请授权后使用'));
});

it('sets the imgPublish flag while images upload and clears it after', async () => {
  chooseImage.mockResolvedValueOnce(picked('a.png', 'b.png'));
  await tap('+ Add images');
  await waitFor(() => page().querySelectorAll('.addarticle__slide-image').length === 2);
  expect(Taro.getStorageSync('imgPublish')).toBe(false);
  await see('Carousel (2/9)');
});

it('goes on to the body, applies the empty rule, previews and publishes', async () => {
  await tap('Style');
  await tap('Next');
  await waitForPath('/pages/addarticle/addarticle-next');
  toast.mockClear();
  await tap('Preview');
  expect(toastTitles()).toContain('请填写正文内容~');
  await typeIntoTextarea('paragraph-0', 'Round faces <love> square frames');
  await tap('Preview');
  await waitForPath('/pages/addarticle/preview');
  await see('Frames for round faces');
  expect(page().querySelector('.article__content')?.innerHTML).toContain('Round faces &lt;love&gt; square frames');
  await tap('Publish');
  await waitForPath('/pages/article/article');
  const sent = calls.find((call) => call.path === '/api/article/insert_article')?.data as any;
  expect(sent).toMatchObject({
    title: 'Frames for round faces',
    category_id: 2,
    cover: '/uploads/article/1-cover.png',
    imgsUrl: ['/uploads/article/2-a.png', '/uploads/article/3-b.png'],
    content: '<p>Round faces &lt;love&gt; square frames</p>',
  });
  await see('Style');
});

it('titles the flow 内容编辑', () => {
  (globalThis as { definePageConfig?: (config: unknown) => unknown }).definePageConfig = (config) => config;
  for (const name of ['addarticle-main', 'addarticle-next', 'preview']) {
    expect(jest.requireActual(`@/pages/addarticle/${name}.config`).default.navigationBarTitleText).toBe('内容编辑');
  }
  expect(shows('Frames for round faces')).toBe(true);
});

async function waitFor(check: () => boolean): Promise<void> {
  for (let i = 0; i < 150; i += 1) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('condition not met');
}

async function typeIntoTextarea(name: string, value: string): Promise<void> {
  await waitFor(() => page().querySelector(`textarea[name="${name}"]`) !== null);
  const textarea = page().querySelector<HTMLTextAreaElement>(`textarea[name="${name}"]`) as HTMLTextAreaElement;
  textarea.value = value;
  textarea.dispatchEvent(new Event('input', { bubbles: true }));
}
