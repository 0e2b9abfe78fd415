import type { Selectable } from 'kysely';
import type { Address, Prescription } from '../../types/api';
import type { AddressesTable, PrescriptionsTable } from '../db/schema';
import { jsonParse } from '../http';
import type { PrescriptionData } from './prescription';

/** A user's saved records as answers show them (and as an order keeps a copy of them). */
export function toAddress(row: Selectable<AddressesTable>): Address {
  return {
    address_id: row.id,
    first_name: row.first_name,
    last_name: row.last_name,
    phone: row.phone,
    country_code: row.country_code,
    province: row.province,
    city: row.city,
    street: row.street,
    street2: row.street2,
    zip: row.zip,
    is_default: row.is_default === 1,
  };
}

/** A prescription as stored (its photo's plain path): what an order keeps of it. */
export function toPrescription(row: Selectable<PrescriptionsTable>): Prescription {
  const data = jsonParse<PrescriptionData>(row.data, {} as PrescriptionData);
  return {
    prescription_id: row.id,
    name: row.name,
    od: data.od,
    os: data.os,
    pd: data.pd,
    image_url: row.image_url,
    note: row.note,
    created_at: row.created_at,
  };
}
