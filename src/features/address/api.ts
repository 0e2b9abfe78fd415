import { get, post } from '@/core/request';
import type { Address, AddressInput, Country } from '../../../types/api';

export type { Address, AddressInput, Country };

export function fetchAddresses(): Promise<Address[]> {
  return post('/api/user/get_user_address');
}

/** Creates the address, or updates it when `address_id` is present; answers the stored address. */
export function saveAddress(input: AddressInput): Promise<Address> {
  return post('/api/user/set_user_address', input);
}

export function deleteAddress(addressId: number): Promise<{ deleted: true }> {
  return post('/api/user/delete_user_address', { address_id: addressId });
}

export function fetchCountries(): Promise<Country[]> {
  return get('/api/config/get_countries', undefined, { loading: false });
}
