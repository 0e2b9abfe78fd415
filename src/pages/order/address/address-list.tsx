import { goBack, requireLogin } from '@/core/navigation';
import { NAMED_TARGETS } from '@/core/routes';
import { useWaiting } from '@/core/use-network';
import { useRouteRecord } from '@/core/use-route-record';
import {
  type Address,
  type Country,
  deleteAddress,
  fetchAddresses,
  fetchCountries,
  saveAddress,
} from '@/features/address/api';
import {
  type AddressDraft,
  type AddressErrors,
  type AddressField,
  REQUIRED_MESSAGES,
  addressLines,
  draftOf,
  emptyDraft,
  toAddressInput,
  validateAddress,
} from '@/features/address/form';
import { failureMessage, fieldError } from '@/features/order/api-error';
import { updateCheckout } from '@/features/order/checkout';
import { usePageLoad } from '@/features/order/use-page-load';
import { Field, FieldFrame } from '@/ui/shop/Field';
import { EmptyView, type LoadState, StateView } from '@/ui/shop/StateView';
import { Picker, Switch, Text, View } from '@tarojs/components';
import Taro, { useRouter } from '@tarojs/taro';
import { useCallback, useEffect, useState } from 'react';
import '@/ui/shop/shop.css';
import './address-list.css';

const TEXT_FIELDS: { field: keyof AddressDraft & string; label: string; placeholder: string; optional?: boolean }[] = [
  { field: 'first_name', label: 'First name', placeholder: 'Given name' },
  { field: 'last_name', label: 'Last name', placeholder: 'Family name' },
  { field: 'phone', label: 'Phone', placeholder: 'With country code, e.g. +1' },
];

const PLACE_FIELDS: { field: keyof AddressDraft & string; label: string; placeholder: string }[] = [
  { field: 'street', label: 'Street and number', placeholder: 'Street and house number' },
  { field: 'street2', label: 'Apartment, floor (optional)', placeholder: 'Apartment, suite, floor' },
  { field: 'city', label: 'City', placeholder: 'City or town' },
  { field: 'province', label: 'State or province (optional)', placeholder: 'State, province or region' },
  { field: 'zip', label: 'Postal code', placeholder: 'ZIP or postcode' },
];

export default function AddressListPage() {
  useRouteRecord();
  const selecting = useRouter().params.select === '1';
  const [addresses, setAddresses] = useState<Address[]>([]);
  const [countries, setCountries] = useState<Country[]>([]);
  const [state, setState] = useState<LoadState>('loading');
  const [loadError, setLoadError] = useState('');
  const [draft, setDraft] = useState<AddressDraft | null>(null);
  const [errors, setErrors] = useState<AddressErrors>({});
  const [formError, setFormError] = useState('');
  const [listError, setListError] = useState('');
  const [saving, setSaving] = useWaiting();

  useEffect(() => {
    requireLogin({ path: NAMED_TARGETS.addressList, query: selecting ? { select: '1' } : {} });
  }, [selecting]);

  const load = useCallback(() => {
    setState('loading');
    Promise.all([fetchAddresses(), fetchCountries()]).then(
      ([list, countryList]) => {
        setAddresses(list);
        setCountries(countryList);
        setState('ready');
      },
      (reason: unknown) => {
        setLoadError(failureMessage(reason));
        setState('error');
      },
    );
  }, []);

  usePageLoad(load);

  const edit = (next: AddressDraft | null) => {
    setDraft(next);
    setErrors({});
    setFormError('');
  };

  const change = (field: keyof AddressDraft, value: string | boolean) => {
    if (!draft) return;
    setDraft({ ...draft, [field]: value });
    if (field in errors) setErrors({ ...errors, [field]: undefined });
  };

  const submit = () => {
    if (!draft || saving) return;
    const found = validateAddress(draft);
    setErrors(found);
    setFormError('');
    if (Object.keys(found).length > 0) return;
    setSaving(true);
    saveAddress(toAddressInput(draft)).then(
      () => {
        setSaving(false);
        edit(null);
        load();
      },
      (reason: unknown) => {
        setSaving(false);
        const { field, message } = fieldError(reason);
        if (field in REQUIRED_MESSAGES) {
          setErrors({ [field as AddressField]: message.charAt(0).toUpperCase() + message.slice(1) });
        } else {
          setFormError(failureMessage(reason));
        }
      },
    );
  };

  const remove = (address: Address) => {
    Taro.showModal({ title: 'Delete address', content: 'Do you want to delete this address?' }).then((answer) => {
      if (!answer.confirm) return;
      setListError('');
      deleteAddress(address.address_id).then(load, (reason: unknown) => setListError(failureMessage(reason)));
    });
  };

  const choose = (address: Address) => {
    if (!selecting) return;
    updateCheckout({ addressId: address.address_id });
    void goBack();
  };

  if (state !== 'ready') {
    return (
      <View className="shop-page">
        <StateView state={state} error={loadError} onRetry={load} />
      </View>
    );
  }

  if (draft) {
    const countryIndex = Math.max(
      0,
      countries.findIndex((item) => item.country_code === draft.country_code),
    );
    return (
      <View className="shop-page address-form">
        <View className="shop-card">
          <Text className="shop-card__title">{draft.address_id ? 'Edit address' : 'New address'}</Text>
          {formError && <Text className="shop-alert">{formError}</Text>}
          {TEXT_FIELDS.map(({ field, label, placeholder }) => (
            <Field
              key={field}
              name={field}
              label={label}
              placeholder={placeholder}
              value={String(draft[field] ?? '')}
              error={errors[field as AddressField]}
              onInput={(value) => change(field, value)}
            />
          ))}
          <FieldFrame label="Country" error={errors.country_code}>
            <Picker
              mode="selector"
              range={countries.map((item) => item.name)}
              value={countryIndex}
              onChange={(event) => change('country_code', countries[Number(event.detail.value)]?.country_code ?? '')}
            >
              <View className="shop-field__input address-form__picker">
                <Text>{countries[countryIndex]?.name ?? 'Choose a country'}</Text>
              </View>
            </Picker>
          </FieldFrame>
          {PLACE_FIELDS.map(({ field, label, placeholder }) => (
            <Field
              key={field}
              name={field}
              label={label}
              placeholder={placeholder}
              value={String(draft[field] ?? '')}
              error={errors[field as AddressField]}
              onInput={(value) => change(field, value)}
            />
          ))}
          <View className="address-form__default">
            <Text>Use as my default address</Text>
            <Switch
              checked={draft.is_default}
              color="#1a1a2e"
              onChange={(event) => change('is_default', event.detail.value)}
            />
          </View>
        </View>
        <View className="shop-footer address-form__footer">
          <View className="shop-button shop-button--ghost address-form__cancel" onClick={() => edit(null)}>
            <Text>Cancel</Text>
          </View>
          <View className={`shop-button address-form__save ${saving ? 'shop-button--disabled' : ''}`} onClick={submit}>
            <Text>Save address</Text>
          </View>
        </View>
      </View>
    );
  }

  return (
    <View className="shop-page">
      {listError && <Text className="shop-alert">{listError}</Text>}
      {selecting && addresses.length > 0 && (
        <Text className="shop-muted address-hint">Tap an address to deliver there.</Text>
      )}
      {addresses.length === 0 ? (
        <EmptyView title="No addresses yet" hint="Add where your glasses should be delivered." />
      ) : (
        addresses.map((address) => (
          <View className="shop-card address-card" key={address.address_id} onClick={() => choose(address)}>
            <View className="address-card__head">
              <Text className="address-card__name">
                {address.first_name} {address.last_name}
              </Text>
              {address.is_default && <Text className="shop-badge">Default</Text>}
            </View>
            <Text className="shop-muted">{address.phone}</Text>
            {addressLines(address, countries).map((line) => (
              <Text className="address-card__line" key={line}>
                {line}
              </Text>
            ))}
            <View className="address-card__actions">
              <View
                className="shop-button shop-button--ghost shop-button--small"
                onClick={(event) => {
                  event.stopPropagation();
                  edit(draftOf(address));
                }}
              >
                <Text>Edit</Text>
              </View>
              <View
                className="shop-button shop-button--danger shop-button--small"
                onClick={(event) => {
                  event.stopPropagation();
                  remove(address);
                }}
              >
                <Text>Delete</Text>
              </View>
            </View>
          </View>
        ))
      )}
      <View className="shop-footer">
        <View className="shop-button address-add" onClick={() => edit(emptyDraft(countries))}>
          <Text>Add a new address</Text>
        </View>
      </View>
    </View>
  );
}
