import { openPage } from '@/core/navigation';
import { imageUrl } from '@/core/request';
import { useWaiting } from '@/core/use-network';
import { useRouteRecord } from '@/core/use-route-record';
import { loadArticle, loadArticleCategories } from '@/features/article/api';
import { absoluteMedia } from '@/features/article/content';
import { addComment, like, loadComments, loadLikes, refusal, unlike } from '@/features/social/api';
import { Avatar, PageLoadState, shortDate } from '@/features/social/components';
import { SOCIAL_PAGES } from '@/features/social/routes';
import { currentToken } from '@/state/customer';
import { Carousel } from '@/ui/shop/Carousel';
import type { LoadState } from '@/ui/shop/StateView';
import { Image, Text, Textarea, View } from '@tarojs/components';
import Taro, { useRouter } from '@tarojs/taro';
import { useEffect, useState } from 'react';
import type { Article, Comment } from '../../../types/api';
import '@/features/social/social.css';
import '@/features/article/article.css';

export default function ArticlePage() {
  useRouteRecord();
  const articleId = Number(useRouter().params.id);
  const [state, setState] = useState<LoadState>('loading');
  const [error, setError] = useState('');
  const [article, setArticle] = useState<Article | null>(null);
  const [category, setCategory] = useState('');
  const [likes, setLikes] = useState({ liked: false, likes: 0 });
  const [comments, setComments] = useState<Comment[]>([]);
  const [draft, setDraft] = useState('');
  const [sending, setSending] = useWaiting();

  const load = () => {
    if (!Number.isInteger(articleId) || articleId <= 0) {
      setError('This link has no article id');
      setState('error');
      return;
    }
    setState('loading');
    loadArticle(articleId).then(
      (loaded) => {
        setArticle(loaded);
        setState('ready');
        void Taro.setNavigationBarTitle({ title: loaded.title });
        loadArticleCategories().then(
          (categories) =>
            setCategory(categories.find((item) => item.category_id === loaded.category_id)?.category_name ?? ''),
          () => undefined,
        );
        loadLikes('article', articleId).then(setLikes, () => undefined);
        loadComments('article', articleId).then(
          (page) => setComments(page.list),
          () => undefined,
        );
      },
      (reason: unknown) => {
        setError(refusal(reason, 'The article could not be loaded'));
        setState('error');
      },
    );
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: loads again only for another article
  useEffect(load, [articleId]);

  const toggleLike = async () => {
    if (!currentToken()) return void openPage('/pages/login/login');
    try {
      setLikes(likes.liked ? await unlike('article', articleId) : await like('article', articleId));
    } catch (reason) {
      void Taro.showToast({ title: refusal(reason, 'Could not save the like'), icon: 'none' });
    }
  };

  const send = async () => {
    if (!currentToken()) return void openPage('/pages/login/login');
    if (draft.trim() === '' || sending) return;
    setSending(true);
    try {
      const comment = await addComment('article', articleId, draft);
      setComments([comment, ...comments]);
      setDraft('');
    } catch (reason) {
      void Taro.showToast({ title: refusal(reason, 'Could not send the comment'), icon: 'none' });
    } finally {
      setSending(false);
    }
  };

  if (state !== 'ready' || !article) {
    return <PageLoadState state={state} error={error} onRetry={load} />;
  }

  return (
    <View className="article">
      {article.imgsUrl.length > 0 && (
        <Carousel
          className="article__carousel"
          dots
          autoplay
          slides={article.imgsUrl.map((url) => ({
            key: url,
            content: <Image className="article__slide" src={imageUrl(url)} mode="aspectFill" />,
          }))}
        />
      )}
      <View className="article__body">
        {category ? <Text className="article__category">{category}</Text> : null}
        <Text className="article__title">{article.title}</Text>
        {article.author && (
          <View
            className="article__author"
            onClick={() => void openPage(SOCIAL_PAGES.user, { id: String(article.author?.user_id) })}
          >
            <Avatar url={article.author.avatar} name={article.author.nickname} size="small" />
            <Text className="article__author-name">{article.author.nickname}</Text>
            <Text className="article__date">{shortDate(article.created_at)}</Text>
          </View>
        )}
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: the server sanitizes article HTML (sanitize-html) when it is saved */}
        <View className="article__content" dangerouslySetInnerHTML={{ __html: absoluteMedia(article.content) }} />
        <View className="article__actions">
          <View className={`article__like ${likes.liked ? 'article__like--on' : ''}`} onClick={toggleLike}>
            <Text>{likes.liked ? '♥ Liked' : '♡ Like'}</Text>
            <Text className="article__like-count">{likes.likes}</Text>
          </View>
        </View>
      </View>
      <View className="social-card article__comments">
        <Text className="social-card__title">Comments ({comments.length})</Text>
        <View className="article__composer">
          <Textarea
            className="article__comment-input"
            name="comment"
            value={draft}
            maxlength={500}
            autoHeight
            placeholder="Write a comment"
            onInput={(event) => setDraft(event.detail.value)}
          />
          <View className={`article__send ${draft.trim() === '' ? 'article__send--off' : ''}`} onClick={send}>
            <Text>Send</Text>
          </View>
        </View>
        {comments.length === 0 ? <Text className="social-muted">No comments yet. Be the first.</Text> : null}
        {comments.map((comment) => (
          <View key={comment.comment_id} className="article__comment">
            <Avatar url={comment.author.avatar} name={comment.author.nickname} size="small" />
            <View className="article__comment-text">
              <Text className="article__comment-name">{comment.author.nickname}</Text>
              <Text className="article__comment-body">{comment.content}</Text>
            </View>
          </View>
        ))}
      </View>
    </View>
  );
}
