import SHA256 from 'crypto-js/sha256';

export type DeviceTraits = Record<string, string | number | boolean>;

/**
 * The device id: a SHA-256 hex digest of the traits, in a fixed key order so that the same device gives
 * the same id whatever order the traits were collected in.
 */
export function deviceIdFromTraits(traits: DeviceTraits): string {
  const canonical = Object.keys(traits)
    .sort()
    .map((key) => `${key}=${String(traits[key])}`)
    .join('|');
  return SHA256(canonical).toString();
}
