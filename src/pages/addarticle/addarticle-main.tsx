import { openPage } from '@/core/navigation';
import { imageUrl } from '@/core/request';
import { useRouteRecord } from '@/core/use-route-record';
import { useSignedInUser } from '@/features/account/use-signed-in';
import { loadArticleCategories } from '@/features/article/api';
import { MAX_CAROUSEL, checkHeader, draftAtom } from '@/features/article/draft';
import { useMediaUpload } from '@/features/article/use-media-upload';
import { pickImages } from '@/features/social/media';
import { SOCIAL_PAGES } from '@/features/social/routes';
import { FailureLine } from '@/ui/shop/StateView';
import { Image, Input, Text, View } from '@tarojs/components';
import Taro from '@tarojs/taro';
import { useAtom } from 'jotai';
import { useEffect, useState } from 'react';
import type { ArticleCategory } from '../../../types/api';
import '@/features/social/social.css';
import '@/features/article/editor.css';

export default function AddArticleMain() {
  useRouteRecord();
  const user = useSignedInUser();
  const [draft, setDraft] = useAtom(draftAtom);
  const [categories, setCategories] = useState<ArticleCategory[]>([]);
  const cover = useMediaUpload();
  const carousel = useMediaUpload();

  const [categoriesFailed, setCategoriesFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);

  // Only the team writes articles: a shopper's page needs no categories.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` changes when the admin taps Try again
  useEffect(() => {
    if (!user?.is_admin) return;
    setCategoriesFailed(false);
    loadArticleCategories().then(setCategories, () => setCategoriesFailed(true));
  }, [user?.is_admin, attempt]);

  if (!user) return null;
  if (!user.is_admin) {
    return (
      <View className="social-page">
        <View className="social-card">
          <Text className="social-card__title">Articles are written by the Lensmate team</Text>
          <Text className="social-muted">
            Only administrators can publish articles. Share your photos in an album instead.
          </Text>
        </View>
      </View>
    );
  }

  const chooseCover = async () => {
    const [url] = await cover.uploadAll(await pickImages(1));
    if (url) setDraft((current) => ({ ...current, cover: url }));
  };

  const addSlides = async () => {
    const room = MAX_CAROUSEL - draft.imgsUrl.length;
    if (room <= 0) return;
    const urls = await carousel.uploadAll(await pickImages(room));
    if (urls.length > 0)
      setDraft((current) => ({ ...current, imgsUrl: [...current.imgsUrl, ...urls].slice(0, MAX_CAROUSEL) }));
  };

  const next = () => {
    if (cover.uploading || carousel.uploading) {
      void Taro.showToast({ title: 'Images are still uploading', icon: 'none' });
      return;
    }
    const problem = checkHeader(draft);
    if (problem) {
      void Taro.showToast({ title: problem, icon: 'none', duration: 2500 });
      return;
    }
    void openPage(SOCIAL_PAGES.addArticleNext);
  };

  return (
    <View className="social-page addarticle">
      <View className="social-card">
        <Text className="social-label">Title</Text>
        <Input
          className="social-input"
          name="title"
          value={draft.title}
          maxlength={120}
          placeholder="An article title"
          onInput={(event) => setDraft((current) => ({ ...current, title: event.detail.value }))}
        />
        <Text className="social-label">Category</Text>
        {categoriesFailed && (
          <FailureLine message="Could not load the categories" onRetry={() => setAttempt((times) => times + 1)} />
        )}
        <View className="social-chips">
          {categories.map((category) => (
            <View
              key={category.category_id}
              className={`social-chip ${draft.category_id === category.category_id ? 'social-chip--on' : ''}`}
              onClick={() =>
                setDraft((current) => ({
                  ...current,
                  category_id: current.category_id === category.category_id ? null : category.category_id,
                }))
              }
            >
              <Text>{category.category_name}</Text>
            </View>
          ))}
        </View>
      </View>

      <View className="social-card">
        <Text className="social-card__title">Cover</Text>
        <View className="addarticle__cover" onClick={chooseCover}>
          {draft.cover ? (
            <Image className="addarticle__cover-image" src={imageUrl(draft.cover)} mode="aspectFill" />
          ) : (
            <Text className="addarticle__placeholder">{cover.uploading ? 'Uploading…' : '+ Choose a cover'}</Text>
          )}
        </View>
      </View>

      <View className="social-card">
        <Text className="social-card__title">
          Carousel ({draft.imgsUrl.length}/{MAX_CAROUSEL})
        </Text>
        <View className="addarticle__slides">
          {draft.imgsUrl.map((url, index) => (
            <View key={url} className="addarticle__slide">
              <Image className="addarticle__slide-image" src={imageUrl(url)} mode="aspectFill" />
              <View
                className="addarticle__remove"
                onClick={() =>
                  setDraft((current) => ({ ...current, imgsUrl: current.imgsUrl.filter((_, at) => at !== index) }))
                }
              >
                <Text>×</Text>
              </View>
            </View>
          ))}
          {draft.imgsUrl.length < MAX_CAROUSEL && (
            <View className="addarticle__slide addarticle__slide--add" onClick={addSlides}>
              <Text>{carousel.uploading ? 'Uploading…' : '+ Add images'}</Text>
            </View>
          )}
        </View>
      </View>

      <View className="social-button" onClick={next}>
        <Text>Next</Text>
      </View>
    </View>
  );
}
