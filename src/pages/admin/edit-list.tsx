import { imageUrl } from '@/core/request';
import { useRouteRecord } from '@/core/use-route-record';
import { AdminDenied } from '@/features/admin/AdminDenied';
import { listAllGoods, listArticles } from '@/features/admin/api';
import { ADMIN_ORDERS_PAGE } from '@/features/admin/orders';
import { ARTICLE_EDIT_PAGE, PRODUCT_EDIT_PAGE } from '@/features/admin/routes';
import { useAdminAccess } from '@/features/admin/use-admin';
import { type AdminList, useAdminList } from '@/features/admin/use-admin-list';
import { CS_AGENTS_PAGE } from '@/features/cs/agents';
import { Field } from '@/ui/form/Field';
import { StateView } from '@/ui/shop/StateView';
import { formatPrice } from '@/utils/format';
import { Image, Text, View } from '@tarojs/components';
import Taro, { useDidShow, useReachBottom, useRouter } from '@tarojs/taro';
import { useRef, useState } from 'react';
import '@/features/admin/admin.css';

type Tab = 'goods' | 'articles';

/** The longest search the server takes (types/schemas/common.ts). */
const SEARCH_MAX = 100;

/** What the admin edits: every frame and every article, a page at a time as the list scrolls, searched on the server. */
export default function EditList() {
  useRouteRecord();
  const access = useAdminAccess();
  const router = useRouter();
  const [tab, setTab] = useState<Tab>(router.params.tab === 'articles' ? 'articles' : 'goods');
  const [drafts, setDrafts] = useState<Record<Tab, string>>({ goods: '', articles: '' });
  const [searches, setSearches] = useState<Record<Tab, string>>({ goods: '', articles: '' });

  // Loaded again from page 1 each time the list shows again (not the first time), so an edit made in an editor is
  // visible on return.
  const [shown, setShown] = useState(0);
  const firstShow = useRef(true);
  useDidShow(() => {
    if (firstShow.current) firstShow.current = false;
    else setShown((times) => times + 1);
  });

  const goods = useAdminList(listAllGoods, searches.goods, shown, access === 'admin', 'Could not load the glasses');
  const articles = useAdminList(
    listArticles,
    searches.articles,
    shown,
    access === 'admin',
    'Could not load the articles',
  );
  useReachBottom(() => (tab === 'goods' ? goods : articles).loadMore());

  const reload = () => setShown((times) => times + 1);

  if (access === 'guest') return null;
  if (access === 'shopper') return <AdminDenied />;

  const search = (which: Tab) => setSearches((current) => ({ ...current, [which]: drafts[which].trim() }));
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
          <Text>Glasses{goods.loading || goods.error ? '' : ` (${goods.total})`}</Text>
        </View>
        <View
          className={`admin-tabs__tab ${tab === 'articles' ? 'admin-tabs__tab--active' : ''}`}
          onClick={() => setTab('articles')}
        >
          <Text>Articles{articles.loading || articles.error ? '' : ` (${articles.total})`}</Text>
        </View>
      </View>
      {tab === 'goods' ? (
        <View>
          <View className="admin-list__new" onClick={() => open(PRODUCT_EDIT_PAGE)}>
            <Text>+ New glasses</Text>
          </View>
          <SearchBox
            label="Glasses by name or id"
            value={drafts.goods}
            onChange={(value) => setDrafts((current) => ({ ...current, goods: value }))}
            onSearch={() => search('goods')}
          />
          {goods.loading && <Text className="admin-state">Loading glasses…</Text>}
          {goods.error && <StateView state="error" error={goods.error} onRetry={reload} />}
          {!goods.loading && !goods.error && goods.items.length === 0 && (
            <Text className="admin-state">
              {searches.goods ? `No glasses match “${searches.goods}”` : 'No glasses yet'}
            </Text>
          )}
          {goods.items.map((item) => (
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
          <ListFoot list={goods} />
        </View>
      ) : (
        <View>
          <View className="admin-list__new" onClick={() => open(ARTICLE_EDIT_PAGE)}>
            <Text>+ New article</Text>
          </View>
          <SearchBox
            label="Articles by title"
            value={drafts.articles}
            onChange={(value) => setDrafts((current) => ({ ...current, articles: value }))}
            onSearch={() => search('articles')}
          />
          {articles.loading && <Text className="admin-state">Loading articles…</Text>}
          {articles.error && <StateView state="error" error={articles.error} onRetry={reload} />}
          {!articles.loading && !articles.error && articles.items.length === 0 && (
            <Text className="admin-state">
              {searches.articles ? `No articles match “${searches.articles}”` : 'No articles yet'}
            </Text>
          )}
          {articles.items.map((item) => (
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
          <ListFoot list={articles} />
        </View>
      )}
    </View>
  );
}

/** A search of the list on the server: typed, then the button or the keyboard's confirm. */
function SearchBox(props: { label: string; value: string; onChange(value: string): void; onSearch(): void }) {
  return (
    <View className="admin-search">
      <Field
        label={props.label}
        name="q"
        value={props.value}
        maxlength={SEARCH_MAX}
        onChange={props.onChange}
        onConfirm={props.onSearch}
      />
      <View className="admin-tabs__tab admin-search__go" onClick={props.onSearch}>
        <Text>Search</Text>
      </View>
    </View>
  );
}

/** Under a list: the next page on its way, a failed page with "Try again", or the end. */
function ListFoot({ list }: { list: AdminList<unknown> }) {
  if (list.loading || list.error || list.items.length === 0) return null;
  if (list.loadingMore) return <Text className="admin-state admin-state--foot">Loading more…</Text>;
  if (list.moreError)
    return (
      <View className="admin-state admin-state--foot">
        <Text>{list.moreError}</Text>
        <View className="admin-tabs__tab" onClick={list.loadMore}>
          <Text>Try again</Text>
        </View>
      </View>
    );
  if (list.done) return <Text className="admin-state admin-state--foot">All {list.total} shown</Text>;
  return (
    <View className="admin-tabs__tab admin-state--foot" onClick={list.loadMore}>
      <Text>Show more</Text>
    </View>
  );
}
