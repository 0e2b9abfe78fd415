import { DELETE_PRESCRIPTION_QUESTION } from '@/features/prescription/api';
import { signOut } from '@/state/customer';
import type { Prescription } from '../../../types/api';
import { mountApp } from '../../setup/mount-app';
import {
  type FakeApi,
  PRESCRIPTION,
  answerModals,
  byText,
  click,
  fakeApi,
  ok,
  signInAda,
  textOf,
  waitForText,
} from './support';

let api: FakeApi;
let saved: Prescription[] = [
  PRESCRIPTION,
  {
    ...PRESCRIPTION,
    prescription_id: 10,
    name: 'Progressive',
    od: { sph: 1.5, cyl: null, axis: null, add: 2, prism: null, base: null },
    os: { sph: 1.25, cyl: null, axis: null, add: 2, prism: null, base: null },
    pd: { kind: 'dual', right: 31.5, left: 32 },
  },
];

beforeAll(async () => {
  signOut();
  signInAda();
  api = fakeApi();
  api.on('GET /api/user/get_my_prescription', () => ok(saved));
  api.on('POST /api/user/delete_my_prescription', (body) => {
    saved = saved.filter((item) => item.prescription_id !== body.prescription_id);
    return ok({ deleted: true });
  });
  await mountApp('/pages/order/prescription/my-prescription-list');
});

it('lists the saved prescriptions per eye with the PD', async () => {
  await waitForText('Reading 2026');
  const text = textOf();
  expect(text).toContain('OD (right) SPH -2.25  CYL -0.50  AXIS 90');
  expect(text).toContain('OS (left) SPH -2.00  Prism 1.00 BU');
  expect(text).toContain('PD 63');
  expect(text).toContain('SPH +1.50  ADD +2.00');
  expect(text).toContain('PD R 31.5 / L 32');
});

it('keeps a prescription when the shopper cancels, deletes it after confirmation', async () => {
  const cancel = answerModals(false);
  click(byText('Delete', 1));
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(cancel).toHaveBeenCalledWith(expect.objectContaining({ content: DELETE_PRESCRIPTION_QUESTION }));
  expect(api.bodiesOf('POST /api/user/delete_my_prescription')).toHaveLength(0);
  cancel.mockRestore();
  answerModals(true);
  click(byText('Delete', 1));
  await waitFor(() => !textOf().includes('Progressive'));
  expect(api.bodiesOf('POST /api/user/delete_my_prescription')).toEqual([{ prescription_id: 10 }]);
  expect(textOf()).toContain('Reading 2026');
  click(byText('Delete'));
  await waitForText('No saved prescriptions');
});

async function waitFor(check: () => boolean): Promise<void> {
  for (let i = 0; i < 150 && !check(); i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(check()).toBe(true);
}
