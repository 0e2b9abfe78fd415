import { type Place, askForPlace, placeFromQuery, readPlaceForm } from '@/features/chat/location';
import { groupCount, userStatus } from '@/features/chat/use-presence';
import Taro from '@tarojs/taro';
import { fakeApi, mountPages, ok, page, see, shows, tap, typeInto, waitForPath } from '../account/harness';

const soho: Place = {
  name: 'Lensmate Soho',
  address: '12 Frith Street, London',
  latitude: 51.5136,
  longitude: -0.1318,
};
const harbour: Place = { name: 'Harbour kiosk', address: '', latitude: -33.8568, longitude: 151.2153 };

beforeAll(async () => {
  Taro.clearStorageSync();
  Taro.setStorageSync('recentPlaces', [soho, { name: 'broken', latitude: 'x' }]);
  fakeApi({ '/api/config/shop_config': ok({ shop_name: 'Lensmate', shop_logo: '' }) });
  await mountPages(
    '/pages/location/open-location?name=Lensmate%20Soho&address=12%20Frith%20Street&latitude=51.5136&longitude=-0.1318',
  );
});

it('open-location shows the place with its coordinates and copies them', async () => {
  await see('Lensmate Soho');
  await see('12 Frith Street');
  await see('51.513600° N, 0.131800° W');
  const copy = jest.spyOn(Taro, 'setClipboardData').mockResolvedValue({ errMsg: 'setClipboardData:ok' } as never);
  await tap('Copy coordinates');
  expect(copy).toHaveBeenCalledWith({ data: '51.5136,-0.1318' });
});

it('open-location explains a link without a place', async () => {
  Taro.redirectTo({ url: '/pages/location/open-location?name=Nowhere&latitude=123' });
  await see('This link names no place');
});

it('choose-location answers with a recent place and goes back', async () => {
  const chosen = askForPlace();
  await waitForPath('/pages/location/choose-location');
  await see('Recent places');
  expect(shows('broken')).toBe(false);
  await tap('Lensmate Soho');
  await expect(chosen).resolves.toEqual(soho);
  await waitForPath('/pages/location/open-location');
});

it('choose-location checks the form, answers with the entered place and remembers it first', async () => {
  const chosen = askForPlace();
  await waitForPath('/pages/location/choose-location');
  await tap('Send this place');
  await see('Give the place a name');
  await see('Enter the latitude');
  await see('Enter the longitude');
  await typeInto(page(), 'place-name', harbour.name);
  await typeInto(page(), 'place-latitude', String(harbour.latitude));
  await typeInto(page(), 'place-longitude', '181');
  await tap('Send this place');
  await see('The longitude is a number from -180 to 180');
  await typeInto(page(), 'place-longitude', String(harbour.longitude));
  await tap('Send this place');
  await expect(chosen).resolves.toEqual(harbour);
  expect(Taro.getStorageSync('recentPlaces')).toEqual([harbour, soho]);
});

it('choose-location answers null when the user leaves without choosing', async () => {
  const chosen = askForPlace();
  await waitForPath('/pages/location/choose-location');
  await see('Harbour kiosk');
  void Taro.navigateBack();
  await expect(chosen).resolves.toBeNull();
});

describe('location and presence rules', () => {
  it('reads a place from a query, decoded, and refuses coordinates out of range', () => {
    expect(placeFromQuery({ name: 'A%20place', address: '', latitude: '1.5', longitude: '2' })).toEqual({
      name: 'A place',
      address: '',
      latitude: 1.5,
      longitude: 2,
    });
    expect(placeFromQuery({ name: 'x', latitude: '91', longitude: '0' })).toBeNull();
    expect(placeFromQuery({ name: 'x', latitude: '10' })).toBeNull();
    expect(readPlaceForm({ name: ' ', address: '', latitude: 'abc', longitude: '' }).errors).toEqual({
      name: 'Give the place a name',
      latitude: 'The latitude is a number from -90 to 90',
      longitude: 'Enter the longitude',
    });
  });

  it('reads user and group presence events for the conversation only', () => {
    const change = (id: string, action: 'online' | 'offline') => ({ time: 1, action, id, data: {} });
    expect(userStatus(change('3', 'offline'), '3')).toBe(false);
    expect(userStatus(change('4', 'online'), '4')).toBe(true);
    expect(userStatus(change('3', 'online'), '5')).toBeNull();
    expect(groupCount({ ...change('3', 'online'), groupId: '7', groupOnlineCount: 2 }, '7')).toBe(2);
    expect(groupCount({ ...change('3', 'online'), groupId: '8', groupOnlineCount: 2 }, '7')).toBeNull();
  });
});
