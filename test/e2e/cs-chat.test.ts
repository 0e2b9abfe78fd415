// Journeys by taps from home or the login page (issue 20). One deep URL kept: a shopper typing the agents'
// desk URL is refused, which is what that step checks (no tap leads a shopper there).
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { openDb } from '../../server/db/connection';
import {
  apiPost,
  fill,
  settledScreenshot as shot,
  topPage as shown,
  signInAs,
  tapText as tap,
  waitForText,
} from './support/account-flow';
import { launchChromium, phonePage } from './support/browser';
import { type RunningShop, startShop } from './support/server';
import { backToTabs, openFrameFromHome, openFromMine, tapTab } from './support/taps';

jest.setTimeout(300_000);

const SECOND_AGENT = { email: 'cara@lensmate.test', password: 'Agent#2026cara', nickname: 'Cara' };

const see = (page: Page, text: string) => waitForText(page, text, 20_000);

async function say(page: Page, text: string): Promise<void> {
  await fill(page, 'message', text);
  await tap(page, 'Send');
  await see(page, text);
}

/** A second agent made the way the shop makes any account, then given the administrator flag in its database. */
async function createSecondAdmin(shop: RunningShop): Promise<void> {
  const registered = await apiPost(shop.url, '/api/auth/register', SECOND_AGENT);
  if (registered.status !== 200) throw new Error(`register failed: ${registered.msg}`);
  const handle = openDb(join(shop.dataDir, 'lensmate.sqlite'));
  try {
    await handle.db.updateTable('users').set({ is_admin: 1 }).where('email', '=', SECOND_AGENT.email).execute();
  } finally {
    await handle.close();
  }
}

/** The agents' desk by taps: back to the tab pages, Mine, Support desk. */
async function openDesk(page: Page): Promise<void> {
  await backToTabs(page);
  await openFromMine(page, 'Support desk', /\/pages\/chat\/chat2/);
  await see(page, 'Go online');
  await tap(page, 'Go online');
  await see(page, 'You are online');
}

describe('customer-service chat in headless Chromium against the real server', () => {
  let shop: RunningShop;
  let browser: Browser;

  beforeAll(async () => {
    shop = await startShop({ AUTH_RATE_LIMIT_MAX: '50' });
    browser = await launchChromium();
    await createSecondAdmin(shop);
  });

  afterAll(async () => {
    await browser?.close();
    await shop?.stop();
  });

  it('a shopper asks about a product; agent A accepts and transfers to agent B, who ends the session', async () => {
    const goodsPage = await apiPost<{ list: { goods_id: number; goods_name: string }[] }>(
      shop.url,
      '/api/goods/get_goods_page',
      { page: 1, page_size: 1 },
    );
    const goods = goodsPage.data.list[0];

    const agentA = await phonePage(browser);
    const agentB = await phonePage(browser);
    const shopper = await phonePage(browser);
    await signInAs(agentA.page, shop.url, 'admin@lensmate.test', 'Admin#2026pass');
    await signInAs(agentB.page, shop.url, SECOND_AGENT.email, SECOND_AGENT.password);
    await signInAs(shopper.page, shop.url, 'ada@lensmate.test', 'Shopper#2026a');

    // A shopper is refused the agents' desk. No tap leads a shopper there: this checks what its URL answers when
    // typed, the one deep URL this journey opens.
    await shopper.page.goto(`${shop.url}/pages/chat/chat2`, { waitUntil: 'networkidle' });
    await see(shopper.page, 'Customer service is for Lensmate agents (administrators) only');
    await shot(shopper.page, 'cs-0-shopper-refused-desk');

    // Cara is an administrator, but not yet an agent of the support team: the server refuses her going online.
    await openFromMine(agentB.page, 'Support desk', /\/pages\/chat\/chat2/);
    await see(agentB.page, 'Go online');
    await tap(agentB.page, 'Go online');
    await agentB.page.getByText('you are not an agent of this team.').first().waitFor();
    await see(agentB.page, 'You are offline');
    await shot(agentB.page, 'cs-0b-not-an-agent-yet');

    // The admin makes her one, from the admin area: the admin list, then Support agents.
    await tapTab(agentA.page, 'Admin');
    await agentA.page.waitForURL(/\/pages\/admin\/edit-list/);
    await tap(agentA.page, 'Support agents');
    await see(agentA.page, 'Support team agents');
    await see(agentA.page, 'admin@lensmate.test');
    await fill(agentA.page, 'agent-email', SECOND_AGENT.email);
    await tap(agentA.page, 'Add agent');
    await see(agentA.page, SECOND_AGENT.email);
    await shot(agentA.page, 'cs-0c-admin-assigns-an-agent');

    await openDesk(agentA.page);
    await openDesk(agentB.page);
    await see(agentA.page, 'Nobody is waiting.');
    await shot(agentA.page, 'cs-1-agent-a-online');

    // The shopper opens support from the product: the product card waits for the first message.
    await backToTabs(shopper.page);
    await tapTab(shopper.page, 'Home');
    await openFrameFromHome(shopper.page, goods.goods_name);
    await shown(shopper.page).getByText('Chat with us ›', { exact: true }).scrollIntoViewIfNeeded();
    await shot(shopper.page, 'cs-1b-product-support-entry');
    await tap(shopper.page, 'Chat with us ›');
    await see(shopper.page, 'Sent with your first message');
    await see(shopper.page, 'Send us a message: an agent will answer shortly.');
    await shot(shopper.page, 'cs-2-shopper-opens-with-product');

    await say(shopper.page, 'Is this frame available in a narrower size?');
    await see(shopper.page, 'Waiting for an agent…');
    expect(await shown(shopper.page).getByText('Sent with your first message').count()).toBe(0);
    await see(shopper.page, goods.goods_name);
    await shot(shopper.page, 'cs-3-shopper-waiting');

    // Agent A sees Ada waiting, opens the conversation with the product card, accepts and replies.
    await see(agentA.page, 'Waiting (1)');
    await see(agentA.page, 'Is this frame available in a narrower size?');
    await shot(agentA.page, 'cs-4-agent-a-pending');
    await tap(agentA.page, 'Ada');
    await see(agentA.page, 'Waiting for an agent to accept');
    await see(agentA.page, goods.goods_name);
    await tap(agentA.page, 'Accept');
    await see(agentA.page, 'You are serving this customer');
    await see(agentA.page, 'You accepted the conversation');
    await say(agentA.page, 'Hello Ada, it comes in 50 and 52 mm.');
    await shot(agentA.page, 'cs-5-agent-a-accepted');

    await see(shopper.page, 'Lensmate Admin is serving you');
    await see(shopper.page, 'Hello Ada, it comes in 50 and 52 mm.');
    await shot(shopper.page, 'cs-6-shopper-served-by-a');
    await say(shopper.page, 'Great, what about lenses?');
    await see(agentA.page, 'Great, what about lenses?');

    // Agent A transfers to Cara.
    await tap(agentA.page, 'Transfer');
    await see(agentA.page, 'Transfer to');
    await tap(agentA.page, 'Cara');
    await see(agentA.page, 'Cara is serving');
    await see(agentA.page, 'You transferred the conversation to Cara');
    await shot(agentA.page, 'cs-7-agent-a-transferred');

    await see(shopper.page, 'Cara is serving you');
    await see(shopper.page, 'Lensmate Admin transferred the conversation to Cara');
    await shot(shopper.page, 'cs-8-shopper-served-by-b');

    // Agent B finds Ada among their conversations, sees the whole session with the card, replies and ends.
    await see(agentB.page, 'My conversations (1)');
    await tap(agentB.page, 'Ada');
    await see(agentB.page, 'You are serving this customer');
    await see(agentB.page, goods.goods_name);
    await see(agentB.page, 'Great, what about lenses?');
    await say(agentB.page, 'Hi, Cara here: our thin 1.67 lenses fit this frame.');
    await see(shopper.page, 'Hi, Cara here: our thin 1.67 lenses fit this frame.');
    await tap(agentB.page, 'End');
    await see(agentB.page, 'You ended the conversation');
    await see(agentB.page, 'Ended');
    expect(await shown(agentB.page).getByText('Accept', { exact: true }).count()).toBe(0);
    await shot(agentB.page, 'cs-9-agent-b-ended');

    await see(shopper.page, 'Cara ended the conversation');
    await see(shopper.page, 'This conversation has ended. Send a message to start a new one.');
    await shot(shopper.page, 'cs-10-shopper-ended');

    // Back at the desk, the ended session is gone from Cara's open conversations.
    await tap(agentB.page, '‹ All');
    await see(agentB.page, 'My conversations (0)');

    for (const side of [agentA, agentB, shopper]) expect(side.errors).toEqual([]);
  });
});
