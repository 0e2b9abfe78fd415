import { imageUrl } from '@/core/request';
import { useRouteRecord } from '@/core/use-route-record';
import { useSignedInUser } from '@/features/account/use-signed-in';
import { insertArticle } from '@/features/article/api';
import { absoluteMedia } from '@/features/article/content';
import { checkDraft, draftAtom, draftHtml, draftInput, emptyDraft } from '@/features/article/draft';
import { refusal } from '@/features/social/api';
import { SOCIAL_PAGES } from '@/features/social/routes';
import { Image, Swiper, SwiperItem, Text, View } from '@tarojs/components';
import Taro from '@tarojs/taro';
import { useAtom } from 'jotai';
import { useState } from 'react';
import '@/features/social/social.css';
import '@/features/article/article.css';
import '@/features/article/editor.css';

export default function ArticlePreview() {
  useRouteRecord();
  const user = useSignedInUser();
  const [draft, setDraft] = useAtom(draftAtom);
  const [busy, setBusy] = useState(false);

  if (!user) return null;
  const bodyHtml = absoluteMedia(draftHtml(draft.blocks));

  const publish = async () => {
    const problem = checkDraft(draft);
    if (problem) {
      void Taro.showToast({ title: problem, icon: 'none', duration: 2500 });
      return;
    }
    setBusy(true);
    try {
      const article = await insertArticle(draftInput(draft));
      setDraft(emptyDraft());
      await Taro.redirectTo({ url: `${SOCIAL_PAGES.article}?id=${article.article_id}` });
    } catch (reason) {
      void Taro.showToast({
        title: refusal(reason, 'The article could not be published'),
        icon: 'none',
        duration: 2500,
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <View className="article">
      {draft.imgsUrl.length > 0 && (
        <Swiper className="article__carousel" indicatorDots={draft.imgsUrl.length > 1} circular>
          {draft.imgsUrl.map((url) => (
            <SwiperItem key={url}>
              <Image className="article__slide" src={imageUrl(url)} mode="aspectFill" />
            </SwiperItem>
          ))}
        </Swiper>
      )}
      <View className="article__body">
        <Text className="article__title">{draft.title}</Text>
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: draftHtml escapes typed text, adds only p, br, img and video */}
        <View className="article__content" dangerouslySetInnerHTML={{ __html: bodyHtml }} />
      </View>
      <View className="social-page addarticle__buttons" style={{ minHeight: 0 }}>
        <View className="social-button social-button--ghost" onClick={() => void Taro.navigateBack()}>
          <Text>Edit</Text>
        </View>
        <View className={`social-button ${busy ? 'social-button--busy' : ''}`} onClick={() => !busy && void publish()}>
          <Text>{busy ? 'Publishing…' : 'Publish'}</Text>
        </View>
      </View>
    </View>
  );
}
