import type { Goods, Page as ListPage } from '../../types/api';
import type { Phone } from './runner/phone';
import { type RunningShop, SHOPPER, api, fixture, openPhone, signIn, startShop } from './support';

jest.setTimeout(120_000);

describe('the mini-program: a shopper browses, is sent to login, builds glasses, orders and pays', () => {
  let shop: RunningShop;
  let phone: Phone;

  beforeAll(async () => {
    shop = await startShop();
    phone = await openPhone(shop);
  });

  afterAll(async () => {
    phone?.close();
    await shop?.stop();
  });

  it('launches on home with the catalogue', async () => {
    expect(phone.route).toBe('pages/index/index');
    await phone.see('Shop by colour');
    const goods = await api<ListPage<Goods>>(shop, '/api/goods/get_goods_page', { page: 1, page_size: 5 });
    await phone.see('New Arrivals');
    await phone.see(goods.list[0].goods_name);
  });

  it('opens the list, loads more on scrolling, and a frame; add-to-cart sends the visitor to login and back', async () => {
    await phone.tap('All frames');
    await phone.waitForPage('pages/product/product-list-main');
    await phone.see(/^\d+ frames$/);
    const tiles = () => phone.findAll(/^\$\d+\.\d\d$/).length;
    const before = tiles();
    await phone.scrollToBottom();
    await phone.until('more frames', () => tiles() > before);

    const shown = await api<ListPage<Goods>>(shop, '/api/goods/get_goods_page', { page: 1, page_size: 10 });
    const frame = shown.list.find((goods) => goods.color_arr.some((color) => color.stock === null || color.stock > 2));
    if (!frame) throw new Error('the demo data has no frame in stock among the first ten');
    await phone.tap(frame.goods_name);
    await phone.waitForPage('pages/product/product', { id: String(frame.goods_id) });
    await phone.see('Frame size');
    await phone.see(/^Colour: /);

    await phone.tap('Add to cart');
    await signIn(phone, SHOPPER);
    await phone.waitForPage('pages/product/product', { id: String(frame.goods_id) });
    await phone.see('Frame size');
  });

  it('chooses single vision, enters a prescription with its photo (the server checks it), then lenses into the cart', async () => {
    await phone.tap('Add to cart');
    await phone.waitForPage('pages/product/lens-type/lens-type');
    await phone.see('Progressive');
    await phone.tap('Single Vision');
    await phone.waitForPage('pages/product/prescription/prescription');
    await phone.see('Right eye (OD)');
    await phone.type(['Right eye (OD)', 'SPH'], '-25');
    await phone.type(['Left eye (OS)', 'SPH'], '-2.00');
    await phone.type('PD (mm)', '63');
    await phone.tap('Save and continue');
    await phone.see('SPH must be from -20 to +20', { whole: false });

    await phone.type(['Right eye (OD)', 'SPH'], '-3.75');
    await phone.type(['Right eye (OD)', 'CYL'], '-0.50');
    await phone.type(['Right eye (OD)', 'AXIS'], '90');
    phone.pickMedia(fixture('prescription.png'));
    await phone.tap('Upload a photo');
    await phone.see('Replace photo');
    await phone.tap('Save and continue');
    await phone.waitForPage('pages/product/lens/lens');
    await phone.see(/^Your strongest power is -4\.25: we recommend index 1\.61 or higher\./);

    await phone.tap('Premium Digital');
    await phone.see('Lens: Premium Digital');
    await phone.tap('Add to cart');
    await phone.waitForPage('pages/order/cart/cart');
    await phone.see('Lenses: Single Vision · Premium Digital, Thin 1.61, Clear lenses');
    await phone.see('Prescription: My prescription');
    await phone.see('1 item · subtotal', { whole: false });
    await phone.tap('+');
    await phone.see('2 items · subtotal', { whole: false });
  });

  it('adds an address, chooses a shipping method and places the order', async () => {
    await phone.tap('Checkout');
    await phone.waitForPage('pages/order/place-order/place-order');
    await phone.tap('Add a delivery address');
    await phone.waitForPage('pages/order/address/address-list');
    await phone.tap('Add a new address');
    await phone.tap('Save address');
    await phone.see('Enter the first name', { whole: false });
    await phone.type('First name', 'Ada');
    await phone.type('Last name', 'Lovelace');
    await phone.type('Phone', '+1 415 555 0100');
    await phone.type('Street and number', '1 Market Street');
    await phone.type('City', 'San Francisco');
    await phone.type('Postal code', '94105');
    await phone.tap('Save address');
    await phone.see('Tap an address to deliver there.');
    await phone.tap('Ada Lovelace');
    await phone.waitForPage('pages/order/place-order/place-order');
    await phone.see('Ada Lovelace · +1 415 555 0100', { whole: false });
    await phone.tap(/^Standard · /);
    await phone.waitForPage('pages/order/shipment/shipment');
    await phone.tap('Express');
    await phone.waitForPage('pages/order/place-order/place-order');
    await phone.see(/Express · 3–5 days/, { whole: false });
    await phone.tap('SAVE15');
    await phone.see('Applied');
    await phone.see('Coupon SAVE15');

    await phone.tap('Place order');
    await phone.waitForPage('pages/order/payment/payment');
    await phone.see('Amount to pay');
  });

  it('pays by card on the payment page: the decline of 4000 0000 0000 0002, then 4242 4242 4242 4242', async () => {
    await phone.type('Card number', '4000000000000002');
    await phone.type('Expiry', '1230');
    await phone.type('CVC', '123');
    expect(await phone.valueOf('Card number')).toBe('4000 0000 0000 0002');
    expect(await phone.valueOf('Expiry')).toBe('12/30');
    await phone.tap('Pay by card');
    await phone.see('Your card was declined.', { whole: false });

    await phone.type('Card number', '4242424242424242');
    expect(await phone.valueOf('Card number')).toBe('4242 4242 4242 4242');
    await phone.tap('Pay by card');
    await phone.waitForPage('pages/order/order-detail/order-detail');
    await phone.see('Paid on', { whole: false });
    await phone.see('Coupon SAVE15');
    await phone.see('Shipping · Express');
    await phone.see('OD SPH -3.75 CYL -0.50 AXIS 90');
    // WeChat keeps ten pages: the journey went back to open pages rather than stacking them again.
    expect(phone.program.pages.length).toBeLessThanOrEqual(10);
  });
});
