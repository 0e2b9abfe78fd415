import { openPage } from '@/core/navigation';
import { imageUrl } from '@/core/request';
import { SEARCH_PAGE } from '@/core/routes';
import { Image, Text, View } from '@tarojs/components';

export const HOME_TITLE = 'Lensmate';
export const HOME_SUBTITLE = 'Prescription glasses, made easy';
export const HOME_SEARCH_HINT = 'Search frames, shapes, colours';

/**
 * The brand and the search field at the top of home. The server's prerendered first screen
 * (server/prerender/home.ts) writes the same elements with the same classes: change both together.
 */
export function HomeHeader({ logo }: { logo: string }) {
  return (
    <View className="home__header">
      <View className="home__brand">
        {logo ? (
          <Image className="home__logo" src={imageUrl(logo)} mode="aspectFit" />
        ) : (
          <View className="home__logo home__logo--placeholder">
            <Text>L</Text>
          </View>
        )}
        <View className="home__brand-text">
          <Text className="home__title">{HOME_TITLE}</Text>
          <Text className="home__subtitle">{HOME_SUBTITLE}</Text>
        </View>
      </View>
      <View className="home__search" onClick={() => void openPage(SEARCH_PAGE)}>
        <View className="home__search-icon" />
        <Text className="home__search-text">{HOME_SEARCH_HINT}</Text>
      </View>
    </View>
  );
}
