import { COVER_REQUIRED, TITLE_REQUIRED } from '@/features/admin/article-form';
import { CONFIRM_DELETE_ARTICLE } from '@/features/admin/confirm';
import { signIn } from '@/state/customer';
import Taro from '@tarojs/taro';
import {
  currentPageElement,
  demoAdmin,
  fakeApi,
  mountPages,
  ok,
  page,
  see,
  shows,
  tap,
  typeInto,
  typeIntoTextarea,
  waitForPath,
} from '../account/harness';

const admin = demoAdmin;
const stored = {
  article_id: 4,
  title: 'Caring for lenses',
  cover: '/uploads/article/c.png',
  imgsUrl: ['/uploads/article/1.png'],
  category_id: null,
  author: null,
  created_at: 0,
  updated_at: 0,
  content: '<h2>Why</h2><p>Wipe gently.</p>',
};
let calls: ReturnType<typeof fakeApi>;
let modal: jest.SpyInstance;
let toasts: string[];
let picked = 0;

beforeAll(async () => {
  Taro.clearStorageSync();
  signIn(admin);
  calls = fakeApi({
    '/api/config/shop_config': ok({ shop_name: 'Lensmate', shop_logo: '' }),
    '/api/article/get_article_category': ok([]),
    '/api/article/insert_article': (data: unknown) => ok({ ...stored, ...(data as object), article_id: 4 }),
    '/api/article/get_article': ok(stored),
    '/api/article/update_article': (data: unknown) => ok({ ...stored, ...(data as object) }),
    '/api/article/delete_article': ok({ deleted: true }),
  });
  modal = jest.spyOn(Taro, 'showModal');
  toasts = [];
  jest.spyOn(Taro, 'showToast').mockImplementation(((options: { title: string }) => {
    toasts.push(options.title);
    return Promise.resolve();
  }) as never);
  jest.spyOn(Taro, 'chooseImage').mockImplementation((() => {
    picked += 1;
    return Promise.resolve({
      tempFilePaths: [`blob:${picked}`],
      tempFiles: [{ path: `blob:${picked}`, size: 10, originalFileObj: { name: `photo${picked}.jpg` } }],
      errMsg: 'chooseImage:ok',
    });
  }) as never);
  jest.spyOn(Taro, 'uploadFile').mockImplementation(((options: { fileName?: string }) =>
    Promise.resolve({
      statusCode: 200,
      data: JSON.stringify(ok({ url: `/uploads/article/${options.fileName}` })),
      errMsg: 'ok',
    })) as never);
  await mountPages('/pages/admin/article-edit');
});

const sent = (path: string) => calls.filter((call) => call.path === path).map((call) => call.data);
const settle = () => new Promise((resolve) => setTimeout(resolve, 60));

it('asks for the title, then the cover and a carousel image, with the messages of the spec', async () => {
  await tap('Publish article');
  await see(TITLE_REQUIRED);
  expect(shows(COVER_REQUIRED)).toBe(true);
  expect(toasts).toContain(TITLE_REQUIRED);
  await typeInto(page(), 'title', 'Summer frames');
  await tap('Upload cover');
  await settle();
  await tap('Publish article');
  await settle();
  expect(toasts.at(-1)).toBe(COVER_REQUIRED);
  expect(sent('/api/article/insert_article')).toHaveLength(0);
});

it('publishes the title, cover, carousel and the paragraphs as HTML', async () => {
  await tap('Add images');
  await settle();
  await typeIntoTextarea(page(), 'block-0', 'Light frames for hot days.\n\nTwo <colours>.');
  await tap('Publish article');
  await waitForPath('/pages/admin/article-edit');
  for (let i = 0; i < 100 && sent('/api/article/insert_article').length === 0; i += 1) await settle();
  expect(sent('/api/article/insert_article')[0]).toEqual({
    title: 'Summer frames',
    cover: '/uploads/article/photo1.jpg',
    imgsUrl: ['/uploads/article/photo2.jpg'],
    content: '<p>Light frames for hot days.</p><p>Two &lt;colours&gt;.</p>',
    category_id: null,
  });
});

it('edits a stored article without losing its formatted parts, then deletes it after the confirmation', async () => {
  await see('Article #4');
  await see('Why');
  expect(currentPageElement().querySelector<HTMLTextAreaElement>('textarea[name="block-1"]')?.value).toBe(
    'Wipe gently.',
  );
  await typeIntoTextarea(page(), 'block-1', 'Wipe gently with the cloth.');
  await tap('Save changes');
  for (let i = 0; i < 100 && sent('/api/article/update_article').length === 0; i += 1) await settle();
  expect(sent('/api/article/update_article')[0]).toMatchObject({
    article_id: 4,
    content: '<h2>Why</h2><p>Wipe gently with the cloth.</p>',
  });
  modal.mockResolvedValueOnce({ confirm: false, cancel: true, errMsg: 'showModal:ok' });
  await tap('Delete article');
  await settle();
  expect(modal).toHaveBeenLastCalledWith(expect.objectContaining({ content: CONFIRM_DELETE_ARTICLE }));
  expect(sent('/api/article/delete_article')).toHaveLength(0);
  modal.mockResolvedValueOnce({ confirm: true, cancel: false, errMsg: 'showModal:ok' });
  await tap('Delete article');
  for (let i = 0; i < 100 && sent('/api/article/delete_article').length === 0; i += 1) await settle();
  expect(sent('/api/article/delete_article')).toEqual([{ article_id: 4 }]);
});
