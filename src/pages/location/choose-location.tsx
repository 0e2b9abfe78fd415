import { useRouteRecord } from '@/core/use-route-record';
import {
  type Place,
  type PlaceErrors,
  type PlaceForm,
  formatCoordinates,
  readPlaceForm,
  recentPlaces,
  rememberPlace,
  reportPlace,
} from '@/features/chat/location';
import { chatPlatform } from '@/features/chat/platform';
import { Field } from '@/ui/shop/Field';
import { Text, View } from '@tarojs/components';
import Taro, { useLoad, useUnload } from '@tarojs/taro';
import { useRef, useState } from 'react';
import '@/features/social/social.css';
import './location.css';

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

  const pickOnMap = chatPlatform.pickPlaceOnMap;
  const openMap = async () => {
    const place = await pickOnMap?.();
    if (place) choose(place);
  };

  useLoad(() => {
    if (pickOnMap) void openMap();
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
      {pickOnMap && (
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
