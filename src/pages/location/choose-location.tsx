import { useRouteRecord } from '@/core/use-route-record';
import {
  type Place,
  type PlaceErrors,
  type PlaceForm,
  formatCoordinates,
  isPlace,
  readPlaceForm,
  recentPlaces,
  rememberPlace,
  reportPlace,
} from '@/features/chat/location';
import { Field } from '@/ui/shop/Field';
import { Text, View } from '@tarojs/components';
import Taro, { useLoad, useUnload } from '@tarojs/taro';
import { useRef, useState } from 'react';
import '@/features/social/social.css';
import './location.css';

export const LOCATION_DENIED = 'Allow location access to choose on the map, or enter the place below';

/**
 * The choose-location system page. On weapp it opens WeChat's map picker (Taro.chooseLocation) at once; everywhere
 * it also offers recent places and a form (name, address, coordinates) that needs no map and no network.
 */
export default function ChooseLocation() {
  useRouteRecord();
  const [form, setForm] = useState<PlaceForm>({ name: '', address: '', latitude: '', longitude: '' });
  const [errors, setErrors] = useState<PlaceErrors>({});
  const [recent] = useState(recentPlaces);
  const answered = useRef(false);

  const choose = (place: Place) => {
    if (answered.current) return;
    answered.current = true;
    rememberPlace(place);
    reportPlace(place);
    void Taro.navigateBack();
  };

  const openMap = async () => {
    try {
      const result = await Taro.chooseLocation({});
      const place = {
        name: result.name || result.address || 'Pinned location',
        address: result.address ?? '',
        latitude: result.latitude,
        longitude: result.longitude,
      };
      if (isPlace(place)) choose(place);
    } catch (error) {
      const message = String((error as { errMsg?: string } | undefined)?.errMsg ?? error);
      if (/auth|deny|denied|permission/i.test(message)) {
        void Taro.showToast({ title: LOCATION_DENIED, icon: 'none', duration: 2500 });
      }
    }
  };

  useLoad(() => {
    if (process.env.TARO_ENV === 'weapp') void openMap();
  });
  useUnload(() => {
    if (!answered.current) reportPlace(null);
  });

  const edit = (key: keyof PlaceForm) => (value: string) => {
    setForm((current) => ({ ...current, [key]: value }));
    setErrors((current) => ({ ...current, [key]: undefined }));
  };
  const submit = () => {
    const { place, errors: found } = readPlaceForm(form);
    setErrors(found);
    if (place) choose(place);
  };

  return (
    <View className="social-page location">
      {process.env.TARO_ENV === 'weapp' && (
        <View className="social-button location__map" onClick={() => void openMap()}>
          <Text>Choose on the map</Text>
        </View>
      )}
      {recent.length > 0 && (
        <View className="social-card">
          <Text className="social-card__title">Recent places</Text>
          {recent.map((place) => (
            <View
              key={`${place.name}:${place.latitude}:${place.longitude}`}
              className="location__recent"
              onClick={() => choose(place)}
            >
              <Text className="location__recent-name">{place.name}</Text>
              <Text className="social-muted">{place.address || formatCoordinates(place)}</Text>
            </View>
          ))}
        </View>
      )}
      <View className="social-card">
        <Text className="social-card__title">Enter a place</Text>
        <Field label="Name" name="place-name" value={form.name} error={errors.name} onInput={edit('name')} />
        <Field
          label="Address (optional)"
          name="place-address"
          value={form.address}
          error={errors.address}
          onInput={edit('address')}
        />
        <View className="location__coordinates">
          <Field
            label="Latitude"
            name="place-latitude"
            type="digit"
            placeholder="51.5074"
            value={form.latitude}
            error={errors.latitude}
            onInput={edit('latitude')}
          />
          <Field
            label="Longitude"
            name="place-longitude"
            type="digit"
            placeholder="-0.1278"
            value={form.longitude}
            error={errors.longitude}
            onInput={edit('longitude')}
          />
        </View>
      </View>
      <View className="social-button" onClick={submit}>
        <Text>Send this place</Text>
      </View>
    </View>
  );
}
