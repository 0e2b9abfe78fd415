import { openPage } from '@/core/navigation';
import { imageUrl } from '@/core/request';
import { CHAT_PAGES } from '@/features/chat/routes';
import { currentToken } from '@/state/customer';
import { type LoadState, StateView } from '@/ui/shop/StateView';
import { Image, Text, View } from '@tarojs/components';
import Taro from '@tarojs/taro';
import { useState } from 'react';
import type { Album, ArticleSummary, SocialImage, UserCard } from '../../../types/api';
import { follow, refusal, unfollow } from './api';
import { SOCIAL_PAGES } from './routes';
import './social.css';

export function Avatar({
  url,
  name,
  size = 'medium',
}: { url: string; name: string; size?: 'small' | 'medium' | 'large' }) {
  if (url) return <Image className={`social-avatar social-avatar--${size}`} src={imageUrl(url)} mode="aspectFill" />;
  return (
    <View className={`social-avatar social-avatar--${size} social-avatar--initial`}>
      <Text>{(name || '?').slice(0, 1).toUpperCase()}</Text>
    </View>
  );
}

/** Follow or unfollow with the button showing the state the server confirmed. */
export function useFollowToggle(onChange?: (userId: number, following: boolean, followers: number) => void) {
  const [busy, setBusy] = useState<number | null>(null);
  const toggle = async (userId: number, following: boolean) => {
    if (!currentToken()) {
      void openPage('/pages/login/login');
      return;
    }
    setBusy(userId);
    try {
      const result = following ? await unfollow(userId) : await follow(userId);
      onChange?.(userId, result.is_following, result.followers);
    } catch (reason) {
      void Taro.showToast({ title: refusal(reason, 'Could not change the follow'), icon: 'none', duration: 2000 });
    } finally {
      setBusy(null);
    }
  };
  return { busy, toggle };
}

export function FollowButton({ following, busy, onClick }: { following: boolean; busy: boolean; onClick: () => void }) {
  return (
    <View
      className={`social-follow ${following ? 'social-follow--on' : ''} ${busy ? 'social-follow--busy' : ''}`}
      onClick={(event) => {
        event.stopPropagation();
        if (!busy) onClick();
      }}
    >
      <Text>{following ? 'Following' : 'Follow'}</Text>
    </View>
  );
}

export function PersonRow(props: { user: UserCard; busy: boolean; onToggle: () => void; showFollow: boolean }) {
  const { user } = props;
  return (
    <View className="social-person" onClick={() => void openPage(SOCIAL_PAGES.user, { id: String(user.user_id) })}>
      <Avatar url={user.avatar} name={user.nickname} />
      <View className="social-person__text">
        <Text className="social-person__name">{user.nickname || `User ${user.user_id}`}</Text>
        <Text className="social-person__bio">{user.bio || 'No bio yet'}</Text>
      </View>
      {props.showFollow && (
        <View
          className="social-person__message"
          onClick={(event) => {
            event.stopPropagation();
            void openPage(CHAT_PAGES.privateChat, { to: String(user.user_id) });
          }}
        >
          <Text>Message</Text>
        </View>
      )}
      {props.showFollow && <FollowButton following={user.is_following} busy={props.busy} onClick={props.onToggle} />}
    </View>
  );
}

export function shortDate(time: number): string {
  const date = new Date(time);
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}

export function ArticleRow({ article }: { article: ArticleSummary }) {
  return (
    <View
      className="social-article"
      onClick={() => void openPage(SOCIAL_PAGES.article, { id: String(article.article_id) })}
    >
      {article.cover ? (
        <Image className="social-article__cover" src={imageUrl(article.cover)} mode="aspectFill" />
      ) : null}
      <View className="social-article__text">
        <Text className="social-article__title">{article.title}</Text>
        <Text className="social-article__meta">
          {article.author?.nickname ? `${article.author.nickname} · ` : ''}
          {shortDate(article.created_at)}
        </Text>
      </View>
    </View>
  );
}

export function AlbumGrid({ albums }: { albums: Album[] }) {
  return (
    <View className="social-grid">
      {albums.map((album) => (
        <View
          key={album.album_id}
          className="social-tile"
          onClick={() => void openPage(SOCIAL_PAGES.albumInfo, { id: String(album.album_id) })}
        >
          {album.cover ? (
            <Image className="social-tile__image" src={imageUrl(album.cover)} mode="aspectFill" />
          ) : (
            <View className="social-tile__image social-tile__image--empty">
              <Text>No photos</Text>
            </View>
          )}
          <Text className="social-tile__name">{album.name}</Text>
          <Text className="social-tile__meta">
            {album.image_count} {album.image_count === 1 ? 'photo' : 'photos'} · {album.owner.nickname}
          </Text>
        </View>
      ))}
    </View>
  );
}

export function ImageGrid({ images, onOpen }: { images: SocialImage[]; onOpen?: (image: SocialImage) => void }) {
  return (
    <View className="social-grid social-grid--three">
      {images.map((image) => (
        <View key={image.image_id} className="social-photo" onClick={() => onOpen?.(image)}>
          <Image className="social-photo__image" src={imageUrl(image.url)} mode="aspectFill" />
          {image.caption ? <Text className="social-photo__caption">{image.caption}</Text> : null}
        </View>
      ))}
    </View>
  );
}

/** A row that opens another page, with a chevron. */
export function LinkRow({ label, value, onClick }: { label: string; value?: string; onClick: () => void }) {
  return (
    <View className="social-link" onClick={onClick}>
      <Text className="social-link__label">{label}</Text>
      <View className="social-link__end">
        {value ? <Text className="social-link__value">{value}</Text> : null}
        <View className="social-link__chevron" />
      </View>
    </View>
  );
}

/** A social page whose data is not there yet: loading, or the error with a retry. */
export function PageLoadState({ state, error, onRetry }: { state: LoadState; error: string; onRetry: () => void }) {
  return (
    <View className="social-page">
      <StateView state={state === 'ready' ? 'loading' : state} error={error} onRetry={onRetry} />
    </View>
  );
}
