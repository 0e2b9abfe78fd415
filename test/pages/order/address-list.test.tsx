import { REQUIRED_MESSAGES, ZIP_MESSAGE } from '@/features/address/form';
import { signOut } from '@/state/customer';
import type { Address } from '../../../types/api';
import { currentPageElement, mountApp, typeInto } from '../../setup/mount-app';
import {
  ADDRESS,
  type FakeApi,
  answerModals,
  byText,
  click,
  fakeApi,
  inputValue,
  ok,
  signInAda,
  textOf,
  waitForText,
} from './support';

let api: FakeApi;
let addresses: Address[] = [];

function fieldMessage(name: string): string {
  const input = currentPageElement().querySelector(`input[name="${name}"]`);
  return input?.closest('.shop-field')?.querySelector('.shop-field__error')?.textContent ?? '';
}

beforeAll(async () => {
  signOut();
  signInAda();
  api = fakeApi();
  api.on('POST /api/user/get_user_address', () => ok(addresses));
  api.on('GET /api/config/get_countries', () =>
    ok([
      { country_code: 'GB', name: 'United Kingdom', phone_code: '44' },
      { country_code: 'US', name: 'United States', phone_code: '1' },
    ]),
  );
  api.on('POST /api/user/set_user_address', (body) => {
    if (body.city === 'Atlantis') return { status: 400, msg: 'country_code: we do not ship to this country' };
    const saved = { ...ADDRESS, ...body, address_id: Number(body.address_id ?? 5) } as Address;
    addresses = [saved, ...addresses.filter((item) => item.address_id !== saved.address_id)];
    return ok(saved);
  });
  api.on('POST /api/user/delete_user_address', (body) => {
    addresses = addresses.filter((item) => item.address_id !== body.address_id);
    return ok({ deleted: true });
  });
  await mountApp('/pages/order/address/address-list');
});

it('shows the empty state and an add button', async () => {
  await waitForText('No addresses yet');
  click(byText('Add a new address'));
  await waitForText('New address');
  expect(textOf()).toContain('United States');
});

it('shows a clear message next to each missing required field and sends nothing', async () => {
  click(byText('Save address'));
  await waitForText(REQUIRED_MESSAGES.first_name);
  expect(fieldMessage('first_name')).toBe(REQUIRED_MESSAGES.first_name);
  expect(fieldMessage('last_name')).toBe(REQUIRED_MESSAGES.last_name);
  expect(fieldMessage('phone')).toBe(REQUIRED_MESSAGES.phone);
  expect(fieldMessage('street')).toBe(REQUIRED_MESSAGES.street);
  expect(fieldMessage('city')).toBe(REQUIRED_MESSAGES.city);
  expect(fieldMessage('zip')).toBe(REQUIRED_MESSAGES.zip);
  expect(fieldMessage('street2')).toBe('');
  expect(api.bodiesOf('POST /api/user/set_user_address')).toHaveLength(0);
});

it("checks the postal code, then puts the server's refusal under the field it names, keeping what was typed", async () => {
  const element = currentPageElement();
  await typeInto(element, 'first_name', 'Ada');
  await typeInto(element, 'last_name', 'Lovelace');
  await typeInto(element, 'phone', '+1 415 555 0100');
  await typeInto(element, 'street', '1 Market Street');
  await typeInto(element, 'city', 'San Francisco');
  await typeInto(element, 'zip', '!!');
  click(byText('Save address'));
  await waitForText(ZIP_MESSAGE);
  expect(api.bodiesOf('POST /api/user/set_user_address')).toHaveLength(0);
  await typeInto(element, 'zip', '94105');
  await typeInto(element, 'city', 'Atlantis');
  click(byText('Save address'));
  await waitForText('We do not ship to this country');
  const countryField = Array.from(element.querySelectorAll('.shop-field')).find((field) =>
    field.textContent?.startsWith('Country'),
  );
  expect(countryField?.querySelector('.shop-field__error')?.textContent).toBe('We do not ship to this country');
  expect(inputValue('street')).toBe('1 Market Street');
  await typeInto(element, 'city', 'San Francisco');
  click(byText('Save address'));
  await waitForText('1 Market Street');
  expect(api.bodiesOf('POST /api/user/set_user_address')[1]).toEqual({
    first_name: 'Ada',
    last_name: 'Lovelace',
    phone: '+1 415 555 0100',
    country_code: 'US',
    province: '',
    city: 'San Francisco',
    street: '1 Market Street',
    street2: '',
    zip: '94105',
    is_default: false,
  });
  expect(textOf()).toContain('United States');
});

it('edits an address with its id', async () => {
  click(byText('Edit'));
  await waitForText('Edit address');
  await typeInto(currentPageElement(), 'city', 'Oakland');
  click(byText('Save address'));
  await waitForText('94105 Oakland');
  const sent = api.bodiesOf('POST /api/user/set_user_address');
  expect(sent[sent.length - 1]).toMatchObject({ address_id: 5, city: 'Oakland' });
});

it('deletes an address after confirmation', async () => {
  const modal = answerModals(true);
  click(byText('Delete'));
  await waitForText('No addresses yet');
  expect(modal).toHaveBeenCalledWith(expect.objectContaining({ content: 'Do you want to delete this address?' }));
  expect(api.bodiesOf('POST /api/user/delete_user_address')).toEqual([{ address_id: 5 }]);
});
