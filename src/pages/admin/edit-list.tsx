import { imageUrl } from '@/core/request';
import { useRouteRecord } from '@/core/use-route-record';
import { AdminDenied } from '@/features/admin/AdminDenied';
import { listAllGoods, listArticles } from '@/features/admin/api';
import { ADMIN_ORDERS_PAGE } from '@/features/admin/orders';
import { ARTICLE_EDIT_PAGE, PRODUCT_EDIT_PAGE } from '@/features/admin/routes';
import { failureText, useAdminAccess } from '@/features/admin/use-admin';
import { CS_AGENTS_PAGE } from '@/features/cs/agents';
import { StateView } from '@/ui/shop/StateView';
import { formatPrice } from '@/utils/format';
import { Image, Text, View } from '@tarojs/components';
import Taro, { useDidShow, useRouter } from '@tarojs/taro';
import { useEffect, useState } from 'react';
import type { ArticleSummary, GoodsCard } from '../../../types/api';
import '@/features/admin/admin.css';

type Tab = 'goods' | 'articles';
type Load<T> =
  | { state: 'loading' }
  | { state: 'failed'; message: string }
  | { state: 'ready'; list: T[]; total: number };

export default function EditList() {
  useRouteRecord();
  const access = useAdminAccess();
  const router = useRouter();
  const [tab, setTab] = useState<Tab>(router.params.tab === 'articles' ? 'articles' : 'goods');
  const [goods, setGoods] = useState<Load<GoodsCard>>({ state: 'loading' });
  const [articles, setArticles] = useState<Load<ArticleSummary>>({ state: 'loading' });

  const [shown, setShown] = useState(0);
  // Reloaded each time the list shows again, so an edit made in an editor is visible on return.
  useDidShow(() => setShown((times) => times + 1));

  // biome-ignore lint/correctness/useExhaustiveDependencies: `shown` changes each time the page is shown again
  useEffect(() => {
    if (access !== 'admin') return;
    listAllGoods().then(
      (page) => setGoods({ state: 'ready', list: page.list, total: page.total }),
      (failure: unknown) => setGoods({ state: 'failed', message: failureText(failure, 'Could not load the glasses') }),
    );
    listArticles().then(
      (page) => setArticles({ state: 'ready', list: page.list, total: page.total }),
      (failure: unknown) =>
        setArticles({ state: 'failed', message: failureText(failure, 'Could not load the articles') }),
    );
  }, [access, shown]);

  const reload = () => setShown((times) => times + 1);

  if (access === 'guest') return null;
  if (access === 'shopper') return <AdminDenied />;

  const open = (url: string) => void Taro.navigateTo({ url });

  return (
    <View className="admin-page">
      <View className="admin-list__new" onClick={() => open(ADMIN_ORDERS_PAGE)}>
        <Text>Orders</Text>
      </View>
      <View className="admin-list__new" onClick={() => open(CS_AGENTS_PAGE)}>
        <Text>Support agents</Text>
      </View>
      <View className="admin-tabs">
        <View
          className={`admin-tabs__tab ${tab === 'goods' ? 'admin-tabs__tab--active' : ''}`}
          onClick={() => setTab('goods')}
        >
          <Text>Glasses{goods.state === 'ready' ? ` (${goods.total})` : ''}</Text>
        </View>
        <View
          className={`admin-tabs__tab ${tab === 'articles' ? 'admin-tabs__tab--active' : ''}`}
          onClick={() => setTab('articles')}
        >
          <Text>Articles{articles.state === 'ready' ? ` (${articles.total})` : ''}</Text>
        </View>
      </View>
      {tab === 'goods' ? (
        <View>
          <View className="admin-list__new" onClick={() => open(PRODUCT_EDIT_PAGE)}>
            <Text>+ New glasses</Text>
          </View>
          {goods.state === 'loading' && <Text className="admin-state">Loading glasses…</Text>}
          {goods.state === 'failed' && <StateView state="error" error={goods.message} onRetry={reload} />}
          {goods.state === 'ready' && goods.list.length === 0 && <Text className="admin-state">No glasses yet</Text>}
          {goods.state === 'ready' &&
            goods.list.map((item) => (
              <View
                key={item.goods_id}
                className="admin-list__item"
                onClick={() => open(`${PRODUCT_EDIT_PAGE}?id=${item.goods_id}`)}
              >
                <Image className="admin-list__thumb" src={imageUrl(item.goods_img)} mode="aspectFill" />
                <View className="admin-list__text">
                  <Text className="admin-list__title">{item.goods_name}</Text>
                  <Text className="admin-list__price">{formatPrice(item.final_price)}</Text>
                  <Text className="admin-list__meta">
                    {item.color_arr.length} colour{item.color_arr.length === 1 ? '' : 's'}
                    {item.discount < 100 ? ` · ${100 - item.discount}% off` : ''}
                  </Text>
                  <Text className={`admin-badge ${item.is_on_sale ? 'admin-badge--on' : ''}`}>
                    {item.is_on_sale ? 'On sale' : 'Unlisted'}
                  </Text>
                </View>
              </View>
            ))}
        </View>
      ) : (
        <View>
          <View className="admin-list__new" onClick={() => open(ARTICLE_EDIT_PAGE)}>
            <Text>+ New article</Text>
          </View>
          {articles.state === 'loading' && <Text className="admin-state">Loading articles…</Text>}
          {articles.state === 'failed' && <StateView state="error" error={articles.message} onRetry={reload} />}
          {articles.state === 'ready' && articles.list.length === 0 && (
            <Text className="admin-state">No articles yet</Text>
          )}
          {articles.state === 'ready' &&
            articles.list.map((item) => (
              <View
                key={item.article_id}
                className="admin-list__item"
                onClick={() => open(`${ARTICLE_EDIT_PAGE}?id=${item.article_id}`)}
              >
                <Image className="admin-list__thumb" src={imageUrl(item.cover)} mode="aspectFill" />
                <View className="admin-list__text">
                  <Text className="admin-list__title">{item.title}</Text>
                  <Text className="admin-list__meta">
                    {item.imgsUrl.length} image{item.imgsUrl.length === 1 ? '' : 's'}
                    {item.author ? ` · ${item.author.nickname}` : ''}
                  </Text>
                </View>
              </View>
            ))}
        </View>
      )}
    </View>
  );
}
