import { useRouteRecord } from '@/core/use-route-record';
import { formatCoordinates, placeFromQuery } from '@/features/chat/location';
import { chatPlatform } from '@/features/chat/platform';
import { StateView } from '@/ui/shop/StateView';
import { Text, View } from '@tarojs/components';
import Taro, { useLoad, useRouter } from '@tarojs/taro';
import '@/features/social/social.css';
import './location.css';

/**
 * The open-location system page: the place in the query (name, address, latitude, longitude). On weapp it opens
 * WeChat's map (Taro.openLocation) at once; everywhere it shows the place with its coordinates.
 */
export default function OpenLocation() {
  useRouteRecord();
  const place = placeFromQuery(useRouter().params);

  const openMap = () => {
    if (place) chatPlatform.showPlaceOnMap(place);
  };
  useLoad(() => {
    if (chatPlatform.mapOnArrival) openMap();
  });

  if (!place) {
    return (
      <View className="social-page">
        <StateView state="error" error="This link names no place" />
      </View>
    );
  }
  const coordinates = formatCoordinates(place);
  return (
    <View className="social-page location">
      <View className="social-card location__place">
        <View className="location__pin">
          <View className="location__pin-head" />
        </View>
        <Text className="location__name">{place.name}</Text>
        {place.address !== '' && <Text className="location__address">{place.address}</Text>}
        <Text className="location__coords">{coordinates}</Text>
      </View>
      <View className="social-button" onClick={openMap}>
        <Text>Open in a map</Text>
      </View>
      <View
        className="social-button social-button--ghost location__copy"
        onClick={() => void Taro.setClipboardData({ data: `${place.latitude},${place.longitude}` })}
      >
        <Text>Copy coordinates</Text>
      </View>
    </View>
  );
}
