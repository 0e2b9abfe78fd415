import { signIn } from '@/state/customer';
import Taro from '@tarojs/taro';
import { fakeApi, mountPages, ok, page, see, shows, tap, waitForPath } from '../account/harness';

const ben = { user_id: 3, email: 'ben@lensmate.test', nickname: 'Ben', avatar: '', is_admin: false, token: 'tok-ben' };
let calls: ReturnType<typeof fakeApi>;
let likes = 4;
let liked = false;

beforeAll(async () => {
  Taro.clearStorageSync();
  signIn(ben);
  calls = fakeApi({
    '/api/config/shop_config': ok({ shop_name: 'Lensmate', shop_logo: '' }),
    '/api/article/get_article': ok({
      article_id: 5,
      title: 'How to measure your PD',
      cover: '/uploads/seed/cover.svg',
      imgsUrl: ['/uploads/seed/a.svg', 'https://cdn.example.com/b.png'],
      content: '<h2>Steps</h2><p>Use a ruler.</p><p><img src="/uploads/seed/a.svg"></p>',
      category_id: 3,
      author: { user_id: 1, nickname: 'Lensmate Admin', avatar: '' },
      created_at: Date.UTC(2026, 2, 4),
      updated_at: 0,
    }),
    '/api/article/get_article_category': ok([{ category_id: 3, category_name: 'Eye health' }]),
    '/api/social/likes': () => ok({ liked, likes }),
    '/api/social/like': () => {
      liked = true;
      likes += 1;
      return ok({ liked, likes });
    },
    '/api/social/comments': ok({
      list: [
        {
          comment_id: 1,
          kind: 'article',
          target_id: 5,
          content: 'Very useful',
          author: { user_id: 2, nickname: 'Ada', avatar: '' },
          created_at: 1,
        },
      ],
      total: 1,
      page: 1,
      page_size: 20,
    }),
    '/api/social/add_comment': (data: any) =>
      ok({
        comment_id: 2,
        kind: 'article',
        target_id: 5,
        content: data.content,
        author: { user_id: 3, nickname: 'Ben', avatar: '' },
        created_at: 2,
      }),
  });
  await mountPages('/pages/article/article?id=5');
});

it('shows the title, category, author, carousel and the rich text', async () => {
  await see('How to measure your PD');
  expect(shows('Eye health')).toBe(true);
  expect(shows('Lensmate Admin')).toBe(true);
  const slides = Array.from(page().querySelectorAll('.article__slide')).map((node) => node.getAttribute('src'));
  expect(slides).toEqual([`${LENSMATE_API_BASE}/uploads/seed/a.svg`, 'https://cdn.example.com/b.png']);
  const content = page().querySelector('.article__content') as HTMLElement;
  expect(content.textContent).toContain('Use a ruler.');
  expect(content.innerHTML).toContain(`src="${LENSMATE_API_BASE}/uploads/seed/a.svg"`);
  expect(calls.find((call) => call.path === '/api/article/get_article')?.data).toEqual({ id: 5 });
});

it('likes the article and shows the new count', async () => {
  await see('♡ Like');
  await tap('♡ Like');
  await see('♥ Liked');
  expect(page().querySelector('.article__like-count')?.textContent).toBe('5');
});

it('lists comments and adds one', async () => {
  await see('Very useful');
  const input = page().querySelector('textarea[name="comment"]') as HTMLTextAreaElement;
  input.value = 'Thanks!';
  input.dispatchEvent(new Event('input', { bubbles: true }));
  await tap('Send');
  await see('Thanks!');
  expect(shows('Comments (2)')).toBe(true);
  expect(calls.find((call) => call.path === '/api/social/add_comment')?.data).toEqual({
    kind: 'article',
    target_id: 5,
    content: 'Thanks!',
  });
});

it('keeps the article in the reading history', async () => {
  Taro.navigateTo({ url: '/pages/history/history' });
  await waitForPath('/pages/history/history');
  await see('How to measure your PD');
});
