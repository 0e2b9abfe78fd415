import { openPage } from '@/core/navigation';
import Taro from '@tarojs/taro';

/** The custom message type that carries a place. */
export const LOCATION_MESSAGE = 'location';

/** What the choose-location page says when the map picker's location permission is refused. */
export const LOCATION_DENIED = 'Allow location access to choose on the map, or enter the place below';

export const LOCATION_PAGES = {
  choose: '/pages/location/choose-location',
  open: '/pages/location/open-location',
} as const;

export interface Place {
  name: string;
  address: string;
  latitude: number;
  longitude: number;
}

export interface PlaceForm {
  name: string;
  address: string;
  latitude: string;
  longitude: string;
}

export type PlaceErrors = Partial<Record<keyof PlaceForm, string>>;

const CHOSEN_EVENT = 'lensmate:location-chosen';

function inRange(value: unknown, limit: number): value is number {
  return typeof value === 'number' && Number.isFinite(value) && Math.abs(value) <= limit;
}

export function isPlace(value: unknown): value is Place {
  const place = value as Partial<Place> | null;
  return (
    typeof place === 'object' &&
    place !== null &&
    typeof place.name === 'string' &&
    typeof place.address === 'string' &&
    inRange(place.latitude, 90) &&
    inRange(place.longitude, 180)
  );
}

function coordinate(text: string, limit: number, label: string): { value?: number; error?: string } {
  if (text.trim() === '') return { error: `Enter the ${label}` };
  const value = Number(text.trim());
  if (!Number.isFinite(value) || Math.abs(value) > limit) {
    return { error: `The ${label} is a number from -${limit} to ${limit}` };
  }
  return { value };
}

/** Checks the hand-entered place: a name, and coordinates within range; the address is optional. */
export function readPlaceForm(form: PlaceForm): { place?: Place; errors: PlaceErrors } {
  const errors: PlaceErrors = {};
  if (form.name.trim() === '') errors.name = 'Give the place a name';
  const latitude = coordinate(form.latitude, 90, 'latitude');
  const longitude = coordinate(form.longitude, 180, 'longitude');
  if (latitude.error) errors.latitude = latitude.error;
  if (longitude.error) errors.longitude = longitude.error;
  if (Object.keys(errors).length > 0) return { errors };
  return {
    errors,
    place: {
      name: form.name.trim(),
      address: form.address.trim(),
      latitude: latitude.value as number,
      longitude: longitude.value as number,
    },
  };
}

/** Six decimals (about 10 cm), with the hemisphere. */
export function formatCoordinates(place: Pick<Place, 'latitude' | 'longitude'>): string {
  const lat = `${Math.abs(place.latitude).toFixed(6)}° ${place.latitude >= 0 ? 'N' : 'S'}`;
  const lng = `${Math.abs(place.longitude).toFixed(6)}° ${place.longitude >= 0 ? 'E' : 'W'}`;
  return `${lat}, ${lng}`;
}

/** A link to the place on OpenStreetMap, for browsers (the pages themselves need no map and no network). */
export function mapLink(latitude: number, longitude: number): string {
  return `https://www.openstreetmap.org/?mlat=${latitude}&mlon=${longitude}#map=17/${latitude}/${longitude}`;
}

export function placeQuery(place: Place): Record<string, string> {
  return {
    name: place.name,
    address: place.address,
    latitude: String(place.latitude),
    longitude: String(place.longitude),
  };
}

/** Reads a place from a page's query (open-location); null when it names no valid place. */
export function placeFromQuery(params: Record<string, string | undefined>): Place | null {
  const decode = (value: string | undefined) => {
    try {
      return decodeURIComponent(value ?? '');
    } catch {
      return value ?? '';
    }
  };
  const place = {
    name: decode(params.name),
    address: decode(params.address),
    latitude: Number(params.latitude),
    longitude: Number(params.longitude),
  };
  return params.latitude && params.longitude && isPlace(place) ? place : null;
}

const RECENT_KEY = 'recentPlaces';
const RECENT_MAX = 5;

/** The places chosen last (newest first, at most five), offered again by choose-location. */
export function recentPlaces(): Place[] {
  const stored: unknown = Taro.getStorageSync(RECENT_KEY);
  return Array.isArray(stored) ? stored.filter(isPlace) : [];
}

export function rememberPlace(place: Place): void {
  const same = (item: Place) =>
    item.name === place.name && item.latitude === place.latitude && item.longitude === place.longitude;
  Taro.setStorageSync(RECENT_KEY, [place, ...recentPlaces().filter((item) => !same(item))].slice(0, RECENT_MAX));
}

let waiting: ((place: Place | null) => void) | null = null;

/**
 * Opens the choose-location page and resolves with the place chosen there, or null when the user leaves it
 * without choosing. Only one choice runs at a time.
 */
export function askForPlace(): Promise<Place | null> {
  if (waiting) return Promise.resolve(null);
  return new Promise((resolve) => {
    const answer = (place: Place | null) => {
      Taro.eventCenter.off(CHOSEN_EVENT, answer);
      waiting = null;
      resolve(place);
    };
    waiting = answer;
    Taro.eventCenter.on(CHOSEN_EVENT, answer);
    openPage(LOCATION_PAGES.choose).catch(() => answer(null));
  });
}

/** Called by the choose-location page: the chosen place, or null when the user left without one. */
export function reportPlace(place: Place | null): void {
  Taro.eventCenter.trigger(CHOSEN_EVENT, place);
}

export function showPlace(place: Place): Promise<unknown> {
  return openPage(LOCATION_PAGES.open, placeQuery(place));
}
