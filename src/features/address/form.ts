import type { Address, AddressInput, Country } from './api';

export type AddressField = 'first_name' | 'last_name' | 'phone' | 'country_code' | 'city' | 'street' | 'zip';
export type AddressErrors = Partial<Record<AddressField, string>>;

export interface AddressDraft {
  address_id?: number;
  first_name: string;
  last_name: string;
  phone: string;
  country_code: string;
  province: string;
  city: string;
  street: string;
  street2: string;
  zip: string;
  is_default: boolean;
}

export const REQUIRED_MESSAGES: Record<AddressField, string> = {
  first_name: 'Enter the first name',
  last_name: 'Enter the last name',
  phone: 'Enter a phone number',
  country_code: 'Choose a country',
  city: 'Enter the city',
  street: 'Enter the street and house number',
  zip: 'Enter the postal code',
};

export const PHONE_MESSAGE = 'Enter a phone number of 6 to 20 digits';
export const ZIP_MESSAGE = 'Enter a postal code of 2 to 12 letters or digits';

export function emptyDraft(countries: Country[]): AddressDraft {
  const country = countries.find((item) => item.country_code === 'US') ?? countries[0];
  return {
    first_name: '',
    last_name: '',
    phone: '',
    country_code: country?.country_code ?? '',
    province: '',
    city: '',
    street: '',
    street2: '',
    zip: '',
    is_default: false,
  };
}

export function draftOf(address: Address): AddressDraft {
  return { ...address };
}

/** The same rules as the server, so the shopper sees each problem next to its field before sending. */
export function validateAddress(draft: AddressDraft): AddressErrors {
  const errors: AddressErrors = {};
  for (const field of Object.keys(REQUIRED_MESSAGES) as AddressField[]) {
    if (draft[field].trim() === '') errors[field] = REQUIRED_MESSAGES[field];
  }
  if (!errors.phone && !/^\+?[\d\s()-]{6,20}$/.test(draft.phone.trim())) errors.phone = PHONE_MESSAGE;
  if (!errors.zip && !/^[A-Za-z0-9 -]{2,12}$/.test(draft.zip.trim())) errors.zip = ZIP_MESSAGE;
  return errors;
}

export function toAddressInput(draft: AddressDraft): AddressInput {
  const input: AddressInput = {
    first_name: draft.first_name.trim(),
    last_name: draft.last_name.trim(),
    phone: draft.phone.trim(),
    country_code: draft.country_code,
    province: draft.province.trim(),
    city: draft.city.trim(),
    street: draft.street.trim(),
    street2: draft.street2.trim(),
    zip: draft.zip.trim(),
    is_default: draft.is_default,
  };
  if (draft.address_id !== undefined) input.address_id = draft.address_id;
  return input;
}

export function addressLines(address: Address, countries: Country[]): string[] {
  const country = countries.find((item) => item.country_code === address.country_code)?.name ?? address.country_code;
  return [
    [address.street, address.street2].filter(Boolean).join(', '),
    [address.zip, address.city, address.province].filter(Boolean).join(' '),
    country,
  ];
}
