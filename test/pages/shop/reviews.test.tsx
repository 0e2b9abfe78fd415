import { CONTENT_REQUIRED, RATING_REQUIRED } from '@/features/review/ProductReviews';
import { customerAtom, signIn, signOut } from '@/state/customer';
import { appStore } from '@/state/store';
import Taro from '@tarojs/taro';
import { currentPageElement, waitForPath } from '../../setup/mount-app';
import { byText, click, fakeApi, makeGoods, mountShop, ok, textOf, wait, waitFor, waitForText } from './support';

const shopper = {
  user_id: 5,
  email: 'ada@lensmate.test',
  nickname: 'Ada',
  avatar: '',
  is_admin: false,
  token: 'tok-ada',
};

const review = (id: number, rating: number, content: string) => ({
  review_id: id,
  goods_id: 7,
  goods_name: 'Avery Round',
  goods_img: '/uploads/frame-7.svg',
  rating,
  content,
  author: { user_id: 2, nickname: 'Ben', avatar: '' },
  created_at: Date.UTC(2026, 10, 1),
  mine: false,
});

beforeEach(() => {
  Taro.clearStorageSync();
  signOut();
  appStore.set(customerAtom, { toPage: '', toPageParams: {} });
});

afterEach(() => {
  jest.restoreAllMocks();
});

describe('reviews tab page', () => {
  it('lists the newest reviews with their frame and the average, page by page', async () => {
    const api = fakeApi();
    api.on('POST /api/review/get_reviews', (body) =>
      body.page === 2
        ? ok({ list: [review(1, 3, 'Second page review')], total: 11, page: 2, page_size: 10, average: 4.2 })
        : ok({
            list: Array.from({ length: 10 }, (_, i) => review(20 - i, 5, `Review ${20 - i}`)),
            total: 11,
            page: 1,
            page_size: 10,
            average: 4.2,
          }),
    );
    await mountShop('/pages/userReview/index');
    await waitForText('★ 4.2 from 11 reviews');
    expect(textOf()).toContain('Avery Round');
    expect(textOf()).toContain('Ben · 2026-11-01');
    Taro.getCurrentInstance().page?.onReachBottom?.();
    await waitForText('Second page review');
    await waitForText('That is every review');
    click(byText('Second page review').closest('.review-card')?.querySelector('.review-card__frame') as Element);
    await waitForPath('/pages/product/product');
    expect(window.location.hash).toContain('id=7');
  });

  it('says when there are no reviews yet', async () => {
    const api = fakeApi();
    api.on('POST /api/review/get_reviews', () => ok({ list: [], total: 0, page: 1, page_size: 10, average: null }));
    await mountShop('/pages/userReview/index');
    await waitForText('No reviews yet. Write the first one from a frame you love.');
  });
});

describe('reviews of a frame', () => {
  it('asks for stars and words, then posts the review and shows it', async () => {
    signIn(shopper);
    const api = fakeApi();
    const saved: ReturnType<typeof review>[] = [];
    api.on('POST /api/goods/get_goods_by_id', () => ok(makeGoods(7)));
    api.on('POST /api/review/get_reviews', () =>
      ok({ list: saved, total: saved.length, page: 1, page_size: 3, average: saved.length ? saved[0].rating : null }),
    );
    api.on('POST /api/review/save_review', (body) => {
      saved.unshift({ ...review(3, Number(body.rating), String(body.content)), mine: true });
      return ok(saved[0]);
    });
    await mountShop('/pages/product/product?id=7');
    await waitForText('No reviews yet');
    click(byText('Post review'));
    await waitForText(RATING_REQUIRED);
    click(currentPageElement().querySelectorAll('.stars--input .stars__star')[3]);
    await wait(50);
    click(byText('Post review'));
    await waitForText(CONTENT_REQUIRED);
    const textarea = currentPageElement().querySelector('textarea') as HTMLTextAreaElement;
    textarea.value = 'Light and comfy';
    textarea.dispatchEvent(new Event('input', { bubbles: true }));
    await wait(50);
    click(byText('Post review'));
    await waitForText('★ 4.0 · 1 review');
    expect(api.bodiesOf('POST /api/review/save_review')).toEqual([
      { goods_id: 7, rating: 4, content: 'Light and comfy' },
    ]);
    await waitFor(() => textOf().includes('Light and comfy'));
  });

  it('sends a visitor to login and back to the frame', async () => {
    const api = fakeApi();
    api.on('POST /api/goods/get_goods_by_id', () => ok(makeGoods(7)));
    api.on('POST /api/review/get_reviews', () => ok({ list: [], total: 0, page: 1, page_size: 3, average: null }));
    await mountShop('/pages/product/product?id=7');
    await waitForText('No reviews yet');
    click(byText('Post review'));
    await waitForPath('/pages/login/login');
    expect(appStore.get(customerAtom)).toMatchObject({ toPage: '/pages/product/product', toPageParams: { id: '7' } });
  });
});
