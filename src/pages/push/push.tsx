import { openPage } from '@/core/navigation';
import { useRouteRecord } from '@/core/use-route-record';
import { useSignedInUser } from '@/features/account/use-signed-in';
import { SOCIAL_PAGES } from '@/features/social/routes';
import { Text, View } from '@tarojs/components';
import '@/features/social/social.css';
import './push.css';

/** What the signed-in user can publish: photos into an album, a new album, tags and (administrators) an article. */
export default function Push() {
  useRouteRecord();
  const user = useSignedInUser();
  if (!user) return null;
  const entries: [string, string, string][] = [
    ['Photos', 'Add photos to one of your albums', SOCIAL_PAGES.addAlbum],
    ['Album', 'Start a new album', SOCIAL_PAGES.createAlbum],
    ['Tags', 'Browse tags and the photos under them', SOCIAL_PAGES.addTag],
  ];
  if (user.is_admin)
    entries.unshift(['Article', 'Write an article with a cover and a carousel', SOCIAL_PAGES.addArticle]);
  return (
    <View className="social-page">
      {entries.map(([title, hint, path]) => (
        <View key={title} className="social-card push__entry" onClick={() => void openPage(path)}>
          <Text className="push__title">{title}</Text>
          <Text className="social-muted">{hint}</Text>
        </View>
      ))}
    </View>
  );
}
