import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Kysely, sql } from 'kysely';
import { SUPPORT_TEAM_ID } from '../../types/api';
import { registerProductionCheck } from '../production-mode';
import { finalPriceCents, refreshSearchText } from '../services/catalog';
import { hashPassword, verifyPassword } from '../services/passwords';
import { UPLOADS_PREFIX } from '../services/uploads';
import type { Database } from './schema';
import { seedSocial } from './social-seed';

/** The demo accounts the README lists. */
export const DEMO_USERS = [
  { email: 'admin@lensmate.test', password: 'Admin#2026pass', nickname: 'Lensmate Admin', is_admin: 1 },
  { email: 'ada@lensmate.test', password: 'Shopper#2026a', nickname: 'Ada', is_admin: 0 },
  { email: 'ben@lensmate.test', password: 'Shopper#2026b', nickname: 'Ben', is_admin: 0 },
] as const;

/**
 * Default secrets: the demo seed writes accounts whose passwords the README publishes. Production refuses the seed
 * switch, and any demo account that still has its published password (an operator who kept the demo data changes
 * them first).
 */
registerProductionCheck({
  id: 'seed.demo-accounts',
  async check({ config, db }) {
    const found = [];
    if (config?.seedOnFirstRun) {
      found.push({
        name: 'SEED_ON_FIRST_RUN',
        reason:
          'is on: a first start would create the demo accounts with the passwords the README publishes (set it to 0)',
      });
    }
    if (!db) return found;
    const rows = await db
      .selectFrom('users')
      .select(['email', 'password_hash'])
      .where(
        'email',
        'in',
        DEMO_USERS.map((user) => user.email),
      )
      .execute()
      .catch(() => []);
    for (const demo of DEMO_USERS) {
      const row = rows.find((candidate) => candidate.email === demo.email);
      if (row && (await verifyPassword(demo.password, row.password_hash))) {
        found.push({ name: demo.email, reason: 'still has the password the README publishes' });
      }
    }
    return found;
  },
});

const COLORS = [
  ['Black', '#1f2328'],
  ['Tortoise', '#7a4a22'],
  ['Gold', '#c9a227'],
  ['Silver', '#a8adb3'],
  ['Crystal', '#d9e6ee'],
  ['Navy', '#1e3a8a'],
  ['Burgundy', '#7f1d1d'],
  ['Rose', '#e8a0b4'],
  ['Olive', '#556b2f'],
  ['Honey', '#d99a3e'],
] as const;

const FILTERS: Record<string, string[]> = {
  Gender: ['Men', 'Women', 'Unisex', 'Kids'],
  Type: ['Eyeglasses', 'Sunglasses', 'Blue Light', 'Reading'],
  Shape: ['Round', 'Square', 'Rectangle', 'Cat-Eye', 'Aviator', 'Oval', 'Browline', 'Geometric'],
  Material: ['Acetate', 'Metal', 'Titanium', 'TR90', 'Mixed'],
  Tag: ['New Arrivals', 'Best Sellers', 'Lightweight', 'On Sale'],
};

const CATEGORIES = ['Eyeglasses', 'Sunglasses', 'Blue Light', 'Kids', 'Reading'];

const NAMES = [
  'Avery',
  'Blake',
  'Cleo',
  'Dorian',
  'Elio',
  'Faye',
  'Gus',
  'Hazel',
  'Ines',
  'Jude',
  'Kira',
  'Leon',
  'Mila',
  'Nico',
  'Opal',
  'Piers',
  'Quinn',
  'Rhea',
  'Sol',
  'Tess',
  'Uma',
  'Vito',
  'Wren',
  'Xavi',
  'Yara',
  'Zane',
  'Arlo',
  'Bea',
  'Cyrus',
  'Dora',
  'Emil',
  'Flora',
  'Gio',
  'Hugo',
  'Iris',
  'Jonas',
  'Lola',
  'Marlo',
  'Nell',
  'Otto',
  'Pia',
  'Remy',
  'Sasha',
  'Theo',
  'Vera',
  'Willa',
  'Ezra',
  'Noor',
];

/** Two lens outlines per shape, drawn in a 400×160 box: left and right. */
function lensPath(shape: string, cx: number): string {
  const w = 72;
  const h = 52;
  switch (shape) {
    case 'Round':
      return `<circle cx="${cx}" cy="80" r="54"/>`;
    case 'Oval':
      return `<ellipse cx="${cx}" cy="80" rx="${w}" ry="${h - 6}"/>`;
    case 'Square':
      return `<rect x="${cx - 62}" y="22" width="124" height="116" rx="18"/>`;
    case 'Rectangle':
      return `<rect x="${cx - w}" y="36" width="${w * 2}" height="88" rx="14"/>`;
    case 'Cat-Eye':
      return `<path d="M${cx - w} 52 Q${cx} 18 ${cx + w} 34 Q${cx + w - 6} 128 ${cx} 128 Q${cx - w + 4} 126 ${cx - w} 52Z"/>`;
    case 'Aviator':
      return `<path d="M${cx - w} 36 Q${cx} 26 ${cx + w} 36 Q${cx + w} 136 ${cx} 136 Q${cx - w} 132 ${cx - w} 36Z"/>`;
    case 'Browline':
      return `<path d="M${cx - w} 40 H${cx + w} Q${cx + w} 128 ${cx} 128 Q${cx - w} 128 ${cx - w} 40Z"/>`;
    default:
      return `<polygon points="${cx - 36},24 ${cx + 36},24 ${cx + w},80 ${cx + 36},136 ${cx - 36},136 ${cx - w},80"/>`;
  }
}

export function frameSvg(shape: string, color: string, tinted: boolean): string {
  const lensFill = tinted ? 'rgba(40,40,40,0.55)' : 'rgba(200,225,240,0.35)';
  const lenses = [lensPath(shape, 110), lensPath(shape, 290)].join('');
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 200" width="800" height="400">',
    '<rect width="400" height="200" fill="#f7f7f5"/>',
    `<g transform="translate(0,20)" fill="${lensFill}" stroke="${color}" stroke-width="10" stroke-linejoin="round">${lenses}</g>`,
    `<path d="M178 92 Q200 74 222 92" fill="none" stroke="${color}" stroke-width="8"/>`,
    `<path d="M36 92 L6 84 M364 92 L394 84" stroke="${color}" stroke-width="8" stroke-linecap="round"/>`,
    '</svg>',
  ].join('');
}

function sideSvg(color: string): string {
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 200" width="800" height="400">',
    '<rect width="400" height="200" fill="#f7f7f5"/>',
    `<path d="M40 90 H330 Q360 92 370 130" fill="none" stroke="${color}" stroke-width="10" stroke-linecap="round"/>`,
    `<rect x="24" y="70" width="26" height="50" rx="8" fill="${color}"/>`,
    '</svg>',
  ].join('');
}

function swatchSvg(color: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40"><circle cx="20" cy="20" r="18" fill="${color}" stroke="#ccc"/></svg>`;
}

/** A poster with the title written on it, or with `caption: false` a picture for a page that writes its own. */
function posterSvg(title: string, hue: number, caption = true): string {
  const safe = title.replace(/[&<>]/g, '');
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 750 420" width="750" height="420">',
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue},55%,62%)"/>`,
    `<stop offset="1" stop-color="hsl(${(hue + 40) % 360},60%,38%)"/></linearGradient></defs>`,
    '<rect width="750" height="420" fill="url(#g)"/>',
    '<g fill="none" stroke="rgba(255,255,255,0.85)" stroke-width="12"><circle cx="290" cy="170" r="70"/><circle cx="460" cy="170" r="70"/>',
    '<path d="M360 165 Q375 150 390 165"/></g>',
    caption
      ? `<text x="375" y="330" text-anchor="middle" font-family="Helvetica, Arial, sans-serif" font-size="38" fill="#fff">${safe}</text>`
      : '',
    '</svg>',
  ].join('');
}

const ARTICLES = [
  ['How to read your eyeglass prescription', 'Guides'],
  ['Choosing frames for your face shape', 'Style'],
  ['Blue light lenses: what they do and do not do', 'Eye health'],
  ['Progressive lenses explained', 'Guides'],
  ['Measuring your pupillary distance at home', 'Guides'],
  ['Acetate or titanium? A frame material guide', 'Style'],
  ['Caring for your glasses: cleaning and storage', 'Guides'],
  ['Polarized sunglasses for driving and water', 'Eye health'],
  ['Kids and screens: protecting young eyes', 'Eye health'],
  ['Five frame trends of the season', 'Style'],
] as const;

const COUNTRIES = [
  ['US', 'United States', '+1'],
  ['CA', 'Canada', '+1'],
  ['GB', 'United Kingdom', '+44'],
  ['DE', 'Germany', '+49'],
  ['FR', 'France', '+33'],
  ['ES', 'Spain', '+34'],
  ['IT', 'Italy', '+39'],
  ['NL', 'Netherlands', '+31'],
  ['AU', 'Australia', '+61'],
  ['NZ', 'New Zealand', '+64'],
  ['JP', 'Japan', '+81'],
  ['SG', 'Singapore', '+65'],
  ['CN', 'China', '+86'],
  ['HK', 'Hong Kong', '+852'],
] as const;

/** True when the database has never been seeded. */
export async function needsSeed(db: Kysely<Database>): Promise<boolean> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', 'seeded_at').executeTakeFirst();
  return !row;
}

/** Writes the demo catalogue: images into `uploadDir/seed`, rows into the database. */
export async function seed(db: Kysely<Database>, uploadDir: string, now: number = Date.now()): Promise<void> {
  const dir = join(uploadDir, 'seed');
  await mkdir(dir, { recursive: true });
  const url = (name: string) => `${UPLOADS_PREFIX}/seed/${name}`;
  const save = async (name: string, svg: string) => {
    await writeFile(join(dir, name), svg);
    return url(name);
  };

  const hashes = await Promise.all(DEMO_USERS.map((user) => hashPassword(user.password)));
  const userIds: number[] = [];
  for (const [index, user] of DEMO_USERS.entries()) {
    const row = await db
      .insertInto('users')
      .values({
        email: user.email,
        password_hash: hashes[index],
        nickname: user.nickname,
        avatar: '',
        bio: '',
        is_admin: user.is_admin,
        google_sub: null,
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    userIds.push(row.id);
  }

  const colorIds = new Map<string, number>();
  for (const [name, value] of COLORS) {
    const img = await save(`swatch-${name.toLowerCase()}.svg`, swatchSvg(value));
    const row = await db.insertInto('colors').values({ name, img, value }).returning('id').executeTakeFirstOrThrow();
    colorIds.set(name, row.id);
  }

  const filterIds = new Map<string, number>();
  let sort = 0;
  for (const [type, names] of Object.entries(FILTERS)) {
    for (const name of names) {
      const img = await save(
        `filter-${type.toLowerCase()}-${name.toLowerCase().replace(/\W+/g, '-')}.svg`,
        posterSvg(name, (sort * 37) % 360),
      );
      const row = await db
        .insertInto('filters')
        .values({ name, img, type, sort: sort++ })
        .returning('id')
        .executeTakeFirstOrThrow();
      filterIds.set(`${type}:${name}`, row.id);
    }
  }

  const categoryIds: number[] = [];
  for (const [index, name] of CATEGORIES.entries()) {
    // Every page names the category beside its picture.
    const img = await save(`category-${index}.svg`, posterSvg(name, index * 60, false));
    const row = await db
      .insertInto('categories')
      .values({ name, img, sort: index })
      .returning('id')
      .executeTakeFirstOrThrow();
    categoryIds.push(row.id);
  }

  const shapes = FILTERS.Shape;
  const materials = FILTERS.Material;
  const genders = FILTERS.Gender;
  const types = FILTERS.Type;
  const tags = FILTERS.Tag;
  const discounts = [100, 100, 90, 80, 100, 70, 85, 100];
  for (const [index, firstName] of NAMES.entries()) {
    const shape = shapes[index % shapes.length];
    const material = materials[index % materials.length];
    const gender = genders[index % genders.length];
    const type = types[Math.floor(index / 2) % types.length];
    const sunglasses = type === 'Sunglasses';
    const colorNames = [0, 3, 7].map((step) => COLORS[(index + step) % COLORS.length][0]).slice(0, 2 + (index % 2));
    const shopPriceCents = 3900 + ((index * 1300) % 12000);
    const discount = discounts[index % discounts.length];
    const name = `${firstName} ${shape}${sunglasses ? ' Sun' : ''}`;
    const images: string[][] = [];
    for (const colorName of colorNames) {
      const value = COLORS.find(([n]) => n === colorName)?.[1] ?? '#000';
      const slug = `${index}-${colorName.toLowerCase()}`;
      images.push([
        await save(`frame-${slug}-front.svg`, frameSvg(shape, value, sunglasses)),
        await save(`frame-${slug}-side.svg`, sideSvg(value)),
      ]);
    }
    const created = now - (NAMES.length - index) * 86_400_000;
    const categoryId =
      categoryIds[
        CATEGORIES.indexOf(gender === 'Kids' ? 'Kids' : type) >= 0
          ? CATEGORIES.indexOf(gender === 'Kids' ? 'Kids' : type)
          : 0
      ];
    const goods = await db
      .insertInto('goods')
      .values({
        name,
        img: images[0][0],
        description: `${firstName} is a ${material.toLowerCase()} ${shape.toLowerCase()} frame for ${gender.toLowerCase()}, made to be worn all day.`,
        shop_price_cents: shopPriceCents,
        discount,
        final_price_cents: finalPriceCents(shopPriceCents, discount),
        category_id: categoryId,
        on_sale: 1,
        lens_width: 48 + (index % 8),
        bridge_width: 16 + (index % 6),
        temple_length: 135 + (index % 3) * 5,
        search_text: '',
        deleted: 0,
        created_at: created,
        updated_at: created,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('goods_colors')
      .values(
        colorNames.map((colorName, position) => ({
          goods_id: goods.id,
          color_id: colorIds.get(colorName) as number,
          images: JSON.stringify(images[position]),
          stock: index % 5 === 0 ? 25 : null,
          sort: position,
        })),
      )
      .execute();
    const goodsTags = [tags[index % (tags.length - 1)], ...(discount < 100 ? ['On Sale'] : [])];
    const filterNames = [
      `Gender:${gender}`,
      `Type:${type}`,
      `Shape:${shape}`,
      `Material:${material}`,
      ...[...new Set(goodsTags)].map((tag) => `Tag:${tag}`),
    ];
    await db
      .insertInto('goods_filters')
      .values([...new Set(filterNames)].map((key) => ({ goods_id: goods.id, filter_id: filterIds.get(key) as number })))
      .execute();
    await refreshSearchText(db, goods.id);
  }

  const lensTypes = [
    [
      'Single Vision',
      'One prescription across the whole lens, for distance or near.',
      0,
      1,
      0,
      [
        ['Standard', 'Clear, scratch resistant', 0],
        ['Premium Digital', 'Sharper edges, wider clear view', 3900],
      ],
    ],
    [
      'Progressive',
      'Distance, intermediate and near in one lens, no visible line.',
      9900,
      1,
      1,
      [
        ['Essential', 'Comfortable everyday progressive', 0],
        ['Wide View', 'Wider reading corridor', 6900],
      ],
    ],
    ['Reading', 'Magnification for close work.', 0, 1, 1, [['Reader', 'For books and phones', 0]]],
    ['Non-prescription', 'Plano lenses, for style or protection.', 0, 0, 0, [['Plano', 'No correction', 0]]],
  ] as const;
  for (const [position, [name, description, price, needsRx, needsAdd, lenses]] of lensTypes.entries()) {
    const type = await db
      .insertInto('lens_types')
      .values({
        name,
        description,
        price_cents: price,
        needs_prescription: needsRx,
        needs_add: needsAdd,
        sort: position,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('lenses')
      .values(
        lenses.map(([lensName, lensDescription, lensPrice], sortIndex) => ({
          lens_type_id: type.id,
          name: lensName,
          description: lensDescription,
          price_cents: lensPrice,
          sort: sortIndex,
        })),
      )
      .execute();
  }
  await db
    .insertInto('lens_thickness')
    .values([
      { index_value: 1.5, name: 'Standard 1.50', description: 'For prescriptions up to ±2.00', price_cents: 0 },
      { index_value: 1.56, name: 'Mid-index 1.56', description: 'Up to ±3.00', price_cents: 1900 },
      { index_value: 1.61, name: 'Thin 1.61', description: 'Up to ±4.50, 25 % thinner', price_cents: 3900 },
      { index_value: 1.67, name: 'Ultra thin 1.67', description: 'Up to ±6.00, 35 % thinner', price_cents: 6900 },
      {
        index_value: 1.74,
        name: 'Thinnest 1.74',
        description: 'Strong prescriptions, 45 % thinner',
        price_cents: 9900,
      },
    ])
    .execute();
  await db
    .insertInto('lens_coatings')
    .values([
      { name: 'Anti-reflective', description: 'Cuts glare and reflections', price_cents: 0 },
      { name: 'Blue light filter', description: 'Filters part of the blue light from screens', price_cents: 2500 },
      { name: 'Hydrophobic', description: 'Repels water and smudges', price_cents: 1500 },
      { name: 'Scratch guard plus', description: 'Hard coat for active days', price_cents: 1000 },
    ])
    .execute();
  await db
    .insertInto('lens_colors')
    .values([
      { name: 'Clear', value: '#ffffff', kind: 'clear', price_cents: 0 },
      { name: 'Grey tint', value: '#555555', kind: 'tint', price_cents: 1500 },
      { name: 'Brown tint', value: '#6b4a2b', kind: 'tint', price_cents: 1500 },
      { name: 'Photochromic grey', value: '#888888', kind: 'photochromic', price_cents: 5900 },
      { name: 'Polarized green', value: '#3f5d3a', kind: 'polarized', price_cents: 4900 },
    ])
    .execute();

  const logo = await save('logo.svg', posterSvg('Lensmate', 200));
  const banners = await Promise.all(
    ['New season frames', 'Blue light lenses from $25', 'Sunglasses with your prescription'].map(
      async (title, index) => ({
        // The home page writes the banner's title over it.
        image: await save(`banner-${index}.svg`, posterSvg(title, 20 + index * 110, false)),
        title,
        link: '/pages/product/product-list-main',
      }),
    ),
  );
  await db
    .insertInto('settings')
    .values([
      { key: 'prism_price_cents', value: '1500' },
      { key: 'shop.name', value: 'Lensmate' },
      { key: 'shop.logo', value: logo },
      { key: 'shop.currency', value: 'USD' },
      { key: 'shop.currency_symbol', value: '$' },
      { key: 'shop.service_email', value: 'care@lensmate.test' },
      { key: 'home.banners', value: JSON.stringify(banners) },
    ])
    .execute();

  await db
    .insertInto('countries')
    .values(COUNTRIES.map(([code, name, phone]) => ({ code, name, phone_code: phone })))
    .execute();

  const day = 86_400_000;
  await db
    .insertInto('coupons')
    .values([
      {
        code: 'WELCOME10',
        title: '$10 off your first pair over $60',
        kind: 'amount',
        value: 1000,
        threshold_cents: 6000,
        valid_from: now - day,
        valid_until: now + 365 * day,
      },
      {
        code: 'SAVE15',
        title: '15 % off orders over $120',
        kind: 'percent',
        value: 15,
        threshold_cents: 12000,
        valid_from: now - day,
        valid_until: now + 180 * day,
      },
      {
        code: 'FREESHIP5',
        title: '$5 off, no minimum',
        kind: 'amount',
        value: 500,
        threshold_cents: 0,
        valid_from: now - day,
        valid_until: now + 90 * day,
      },
      {
        code: 'SUMMER2025',
        title: 'Summer sale 20 % (expired)',
        kind: 'percent',
        value: 20,
        threshold_cents: 0,
        valid_from: now - 400 * day,
        valid_until: now - 200 * day,
      },
    ])
    .execute();
  await db
    .insertInto('shipping_methods')
    .values([
      {
        name: 'Standard',
        description: 'Tracked post',
        price_cents: 599,
        free_threshold_cents: 9900,
        min_days: 7,
        max_days: 12,
        sort: 0,
      },
      {
        name: 'Express',
        description: 'Courier, tracked and signed',
        price_cents: 1999,
        free_threshold_cents: null,
        min_days: 3,
        max_days: 5,
        sort: 1,
      },
      {
        name: 'Priority',
        description: 'Next available flight, courier delivery',
        price_cents: 3499,
        free_threshold_cents: null,
        min_days: 1,
        max_days: 3,
        sort: 2,
      },
    ])
    .execute();

  const articleCategoryIds = new Map<string, number>();
  for (const name of ['Guides', 'Style', 'Eye health']) {
    const row = await db.insertInto('article_categories').values({ name }).returning('id').executeTakeFirstOrThrow();
    articleCategoryIds.set(name, row.id);
  }
  for (const [index, [title, category]] of ARTICLES.entries()) {
    const cover = await save(`article-${index}-cover.svg`, posterSvg(title.split(':')[0].slice(0, 28), index * 33));
    const carousel = [
      await save(`article-${index}-a.svg`, posterSvg(category, index * 33 + 60)),
      await save(`article-${index}-b.svg`, posterSvg('Lensmate', index * 33 + 120)),
    ];
    const created = now - (ARTICLES.length - index) * 3 * day;
    await db
      .insertInto('articles')
      .values({
        title,
        cover,
        imgs: JSON.stringify(carousel),
        content: `<h2>${title}</h2><p>Our opticians answer the questions we hear most about this topic.</p><p><img src="${carousel[0]}" alt="${category}"></p><p>Questions? Write to care@lensmate.test and we reply within a day.</p>`,
        category_id: articleCategoryIds.get(category) ?? null,
        author_id: userIds[0],
        created_at: created,
        updated_at: created,
      })
      .execute();
  }
  await seedSocial(db, now);
  // The demo admin answers the support chat; admins assign further agents in the admin area.
  // Written as the messaging server's MessagingControl.assignAgent writes it (server/db knows no messaging handler).
  await sql`insert into msg_cs_assignment (team_id, agent_id, created_at)
    values (${SUPPORT_TEAM_ID}, ${String(userIds[0])}, ${now}) on conflict do nothing`.execute(db);
  await db
    .insertInto('settings')
    .values({ key: 'seeded_at', value: String(now) })
    .execute();
}
