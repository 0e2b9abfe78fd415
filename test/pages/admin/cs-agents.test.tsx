import { signIn } from '@/state/customer';
import Taro from '@tarojs/taro';
import { SUPPORT_TEAM_ID } from '../../../types/api';
import {
  demoAdmin,
  fakeApi,
  mountPages,
  ok,
  page,
  refused,
  see,
  shows,
  tap,
  typeInto,
  waitForPath,
} from '../account/harness';

const admin = {
  user_id: 1,
  email: 'admin@lensmate.test',
  nickname: 'Lensmate Admin',
  avatar: '',
  online: true,
  assigned_at: 1,
};
const cara = { user_id: 4, email: 'cara@lensmate.test', nickname: 'Cara', avatar: '', online: false, assigned_at: 2 };
let agents = [admin];
let calls: ReturnType<typeof fakeApi>;
let modal: jest.SpyInstance;

beforeAll(async () => {
  Taro.clearStorageSync();
  signIn(demoAdmin);
  calls = fakeApi({
    '/api/config/shop_config': ok({ shop_name: 'Lensmate', shop_logo: '' }),
    '/api/admin/goods/list': ok({ list: [], total: 0, page: 1, page_size: 20 }),
    '/api/admin/article/list': ok({ list: [], total: 0, page: 1, page_size: 20 }),
    '/api/admin/cs_agents': () => ok(agents),
    '/api/admin/cs_agent_assign': (data: unknown) => {
      if ((data as { email: string }).email !== cara.email) return refused(404, 'email: no account with this e-mail');
      agents = [admin, cara];
      return ok(agents);
    },
    '/api/admin/cs_agent_remove': () => {
      agents = [admin];
      return ok(agents);
    },
  });
  modal = jest.spyOn(Taro, 'showModal');
  await mountPages('/pages/admin/edit-list');
});

const sent = (path: string) => calls.filter((call) => call.path === path).map((call) => call.data);

it('is a tap away from the admin list, and lists the support team as the server has it', async () => {
  await tap('Support agents');
  await waitForPath('/pages/admin/cs-agents');
  await see('Lensmate Admin');
  expect(shows('admin@lensmate.test')).toBe(true);
  expect(shows('Online')).toBe(true);
  expect(sent('/api/admin/cs_agents')).toEqual([{ team_id: SUPPORT_TEAM_ID }]);
});

it("shows the server's refusal of an unknown e-mail and adds a known account", async () => {
  await tap('Add agent');
  await see('email: is required');
  expect(sent('/api/admin/cs_agent_assign')).toHaveLength(0);
  await typeInto(page(), 'agent-email', 'nobody@lensmate.test');
  await tap('Add agent');
  await see('email: no account with this e-mail');
  await typeInto(page(), 'agent-email', cara.email);
  await tap('Add agent');
  await see('Cara');
  expect(sent('/api/admin/cs_agent_assign').at(-1)).toEqual({ team_id: SUPPORT_TEAM_ID, email: cara.email });
});

it('removes an agent only after the confirmation', async () => {
  modal.mockResolvedValueOnce({ confirm: false, cancel: true, errMsg: 'showModal:ok' });
  const removeButtons = () => Array.from(page().querySelectorAll('.cs-action--danger'));
  removeButtons()[1].dispatchEvent(new MouseEvent('click', { bubbles: true }));
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(sent('/api/admin/cs_agent_remove')).toHaveLength(0);
  modal.mockResolvedValueOnce({ confirm: true, cancel: false, errMsg: 'showModal:ok' });
  removeButtons()[1].dispatchEvent(new MouseEvent('click', { bubbles: true }));
  for (let i = 0; i < 100 && shows('Cara'); i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(shows('Cara')).toBe(false);
  expect(sent('/api/admin/cs_agent_remove')).toEqual([{ team_id: SUPPORT_TEAM_ID, user_id: cara.user_id }]);
});
