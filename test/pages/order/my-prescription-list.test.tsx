import { DELETE_PRESCRIPTION_QUESTION } from '@/features/prescription/api';
import { ADD_PRESCRIPTION, SAVE_PRESCRIPTION } from '@/pages/order/prescription/my-prescription-list';
import { signOut } from '@/state/customer';
import Taro from '@tarojs/taro';
import type { Prescription } from '../../../types/api';
import { currentPageElement, mountApp, typeInto } from '../../setup/mount-app';
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
  api.on('POST /api/order/submit_my_prescription', (body) => {
    if (body.od?.sph !== undefined && Math.abs(body.od.sph) > 20)
      return { status: 400, msg: 'od.sph: must be from -20.00 to +20.00' };
    const existing = saved.find((item) => item.prescription_id === body.prescription_id);
    const stored = {
      ...PRESCRIPTION,
      ...(existing ?? {}),
      ...(body as unknown as Prescription),
      prescription_id: existing?.prescription_id ?? 20,
      image_url: (body.image_url as string | null | undefined) ?? null,
    };
    saved = existing ? saved.map((item) => (item === existing ? stored : item)) : [stored, ...saved];
    return ok(stored);
  });
  api.on('POST /api/goods/save_goods_media_files', () => ok({ url: '/uploads/rx.png' }));
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

it('adds a prescription from the list: the fields are checked, the server refuses a power out of range beside its field', async () => {
  click(byText(ADD_PRESCRIPTION));
  await waitForText('New prescription');
  const page = currentPageElement();
  await typeInto(page, 'name', 'Driving');
  click(byText(SAVE_PRESCRIPTION));
  await waitForText('SPH is required');
  expect(api.bodiesOf('POST /api/order/submit_my_prescription')).toHaveLength(0);
  await typeInto(page, 'od.sph', '-25');
  await typeInto(page, 'os.sph', '-3.5');
  await typeInto(page, 'pd', '64');
  click(byText(SAVE_PRESCRIPTION));
  await waitForText('SPH must be from -20.00 to +20.00');
  await typeInto(page, 'od.sph', '-3.25');
  click(byText(SAVE_PRESCRIPTION));
  await waitFor(() => !textOf().includes('New prescription'));
  const sent = api.bodiesOf('POST /api/order/submit_my_prescription').at(-1);
  expect(sent).toMatchObject({
    name: 'Driving',
    od: { sph: -3.25 },
    os: { sph: -3.5 },
    pd: { kind: 'single', value: 64 },
  });
  expect(sent).not.toHaveProperty('prescription_id');
  expect(textOf()).toContain('Driving');
  expect(textOf()).toContain('OD (right) SPH -3.25');
});

it('edits a saved prescription with its values filled in, and uploads a photo of the paper one', async () => {
  jest
    .spyOn(Taro, 'chooseImage')
    .mockResolvedValue({ tempFilePaths: ['blob:rx'], tempFiles: [], errMsg: 'chooseImage:ok' } as never);
  jest.spyOn(Taro, 'uploadFile').mockImplementation(((options: { success?: (result: unknown) => void }) => {
    const result = {
      data: JSON.stringify({ status: 200, msg: 'ok', data: { url: '/uploads/rx.png' } }),
      statusCode: 200,
      errMsg: 'uploadFile:ok',
    };
    options.success?.(result);
    return Object.assign(Promise.resolve(result), { abort: () => undefined, onProgressUpdate: () => undefined });
  }) as never);
  const before = api.bodiesOf('POST /api/order/submit_my_prescription').length;
  // The prescriptions of the first tests were deleted: the one added above is the only one left.
  click(byText('Edit'));
  await waitForText('Edit Driving');
  const page = currentPageElement();
  const field = (name: string) => page.querySelector<HTMLInputElement>(`input[name="${name}"]`);
  await waitFor(() => field('pd')?.value === '64');
  expect([field('name')?.value, field('od.sph')?.value, field('os.sph')?.value]).toEqual(['Driving', '-3.25', '-3.5']);
  click(byText('Upload a photo'));
  await waitForText('Replace photo');
  await typeInto(page, 'od.axis', '90');
  await typeInto(page, 'od.cyl', '-0.5');
  click(byText(SAVE_PRESCRIPTION));
  await waitFor(() => !textOf().includes('Edit Driving'));
  const sent = api.bodiesOf('POST /api/order/submit_my_prescription');
  expect(sent).toHaveLength(before + 1);
  expect(sent.at(-1)).toMatchObject({
    prescription_id: 20,
    name: 'Driving',
    od: { sph: -3.25, cyl: -0.5, axis: 90 },
    image_url: '/uploads/rx.png',
  });
  expect(textOf()).toContain('OD (right) SPH -3.25  CYL -0.50  AXIS 90');
  expect(textOf().match(/Driving/g)).toHaveLength(1);
});

async function waitFor(check: () => boolean): Promise<void> {
  for (let i = 0; i < 150 && !check(); i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(check()).toBe(true);
}
