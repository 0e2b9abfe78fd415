import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * `npm run lint` checks the README's layering with dependency-cruiser (.dependency-cruiser.cjs). Here every rule
 * meets a deliberately bad import in a small tree laid out like the repository, and the imports the layering
 * allows sit beside them: each rule must report its bad import and nothing else.
 */
const root = join(__dirname, '../..');
const rules: { name: string }[] = require(join(root, '.dependency-cruiser.cjs')).forbidden;

/** The fixture tree: file → its source. Targets exist so that only the layering, not resolution, is judged. */
const files: Record<string, string> = {
  // Targets of the imports below.
  'src/features/chat/unread.ts': 'export const unread = 0;\n',
  'src/messaging/index.ts': 'export const SDK = 1;\n',
  'src/state/customer.ts': 'export const customer = null;\n',
  'src/utils/price.ts': 'export const cents = (value: number) => Math.round(value * 100);\n',
  'src/pages/cart/cart.tsx': 'export const CartPage = 1;\n',
  'server/api/review.ts': 'export interface Review { id: number }\n',
  'server/messaging/im.ts': 'export const handler = 1;\n',
  'test/support/helpers.ts': 'export const helper = 1;\n',
  'types/schemas/order.ts': "import { z } from 'zod';\nexport const order = z.object({ order_id: z.number() });\n",
  'types/contract.ts': "import { order } from './schemas/order';\nexport const contract = { order };\n",

  // One bad import per rule.
  'src/messaging/bad.ts': "import { customer } from '../state/customer';\nexport const bad = customer;\n",
  'src/core/bad.ts': "import { unread } from '@/features/chat/unread';\nexport const bad = unread;\n",
  'src/utils/taro.ts': "import Taro from '@tarojs/taro';\nexport const bad = Taro;\n",
  'src/utils/state.ts': "import { customer } from '../state/customer';\nexport const bad = customer;\n",
  'src/state/bad.ts': "import { unread } from '../features/chat/unread';\nexport const bad = unread;\n",
  'src/ui/bad.tsx': "import { unread } from '../features/chat/unread';\nexport const bad = unread;\n",
  'src/pages/chat/bad.tsx': "import { SDK } from '@/messaging';\nexport const bad = SDK;\n",
  'src/pages/order/bad.tsx': "import { CartPage } from '../cart/cart';\nexport const bad = CartPage;\n",
  'src/features/cart/bad.ts': "import { CartPage } from '../../pages/cart/cart';\nexport const bad = CartPage;\n",
  'src/features/review/bad.ts':
    "import type { Review } from '../../../server/api/review';\nexport type Bad = Review;\n",
  'types/bad.ts': "import { cents } from '../src/utils/price';\nexport const bad = cents;\n",
  'server/db/route.ts': "import type { Review } from '../api/review';\nexport type Bad = Review;\n",
  'server/db/handler.ts': "import { handler } from '../messaging/im';\nexport const bad = handler;\n",
  'server/services/app.ts': "import { customer } from '../../src/state/customer';\nexport const bad = customer;\n",
  'server/services/test.ts': "import { helper } from '../../test/support/helpers';\nexport const bad = helper;\n",
  'server/services/dev.ts': "import { chromium } from 'playwright-core';\nexport const bad = chromium;\n",
  'src/features/order/bad.ts': "import { order } from '../../../types/schemas/order';\nexport const bad = order;\n",
  'types/api.ts': "import { contract } from './contract';\nexport const bad = contract;\n",
  'types/constants.ts': "import { z } from 'zod';\nexport const bad = z;\n",
  'src/core/typo.ts': "import { missing } from './no-such-file';\nexport const bad = missing;\n",
  'src/features/chat/platform.d.ts': 'export declare const share: (text: string) => void;\n',
  'src/features/chat/platform.h5.ts': 'export const share = (text: string) => window.alert(text);\n',
  'src/features/chat/platform.weapp.ts': 'export const share = (_text: string) => undefined;\n',
  'src/features/chat/direct.ts': "import { share } from './platform.h5';\nexport const bad = share;\n",
  'src/messaging/protocol/limits.ts': "import { SDK } from '../index';\nexport const ID_LENGTH = SDK;\n",

  // Imports the layering allows: none may be reported.
  'src/pages/cart/own.tsx':
    "import { CartPage } from './cart';\nimport { unread } from '../../features/chat/unread';\nexport const ok = [CartPage, unread];\n",
  'src/features/chat/sdk.ts': "import { SDK } from '../../messaging/index';\nexport const ok = SDK;\n",
  'src/utils/pure.ts':
    "import dayjs from 'dayjs';\nimport { cents } from './price';\nexport const ok = [dayjs, cents];\n",
  'server/db/messaging-migrations.ts': 'export const messagingMigrations = {};\n',
  'server/db/migrations.ts':
    "import { messagingMigrations } from './messaging-migrations';\nexport const ok = messagingMigrations;\n",
  'src/features/chat/through.ts': "import { share } from './platform';\nexport const ok = share;\n",
  'src/features/order/typed.ts':
    "import type { contract } from '../../../types/contract';\nimport type { order } from '../../../types/schemas/order';\nexport type Ok = [typeof contract, typeof order];\n",
  'server/services/protocol.ts':
    "import * as Limits from '../../src/messaging/protocol/limits';\nexport const ok = Limits.ID_LENGTH;\n",
  'src/messaging/protocol/texts.ts': "import { ID_LENGTH } from './limits';\nexport const ok = ID_LENGTH;\n",
  'server/services/shared.ts':
    "import { cents } from '../../src/utils/price';\nimport type { Browser } from 'playwright-core';\nexport const ok = cents;\nexport type Ok = Browser;\n",
};

/** Rule name → the bad imports (`from → to`) it must report. */
const expected: Record<string, string[]> = {
  'sdk-imports-nothing-of-the-app': ['src/messaging/bad.ts → src/state/customer.ts'],
  'core-knows-no-feature': ['src/core/bad.ts → src/features/chat/unread.ts'],
  'utils-are-pure': ['src/utils/state.ts → src/state/customer.ts', 'src/utils/taro.ts → @tarojs/taro'],
  'state-knows-no-feature': ['src/state/bad.ts → src/features/chat/unread.ts'],
  'ui-is-presentational': ['src/ui/bad.tsx → src/features/chat/unread.ts'],
  'pages-stay-thin': ['src/pages/chat/bad.tsx → src/messaging/index.ts'],
  'pages-import-no-other-page': ['src/pages/order/bad.tsx → src/pages/cart/cart.tsx'],
  'features-do-not-import-pages': ['src/features/cart/bad.ts → src/pages/cart/cart.tsx'],
  'app-reaches-the-server-over-http-only': ['src/features/review/bad.ts → server/api/review.ts'],
  'types-import-nothing-of-app-or-server': ['types/bad.ts → src/utils/price.ts'],
  'db-knows-no-route': ['server/db/route.ts → server/api/review.ts'],
  'db-knows-no-messaging-handler': ['server/db/handler.ts → server/messaging/im.ts'],
  'server-imports-no-app': ['server/services/app.ts → src/state/customer.ts'],
  'protocol-stands-alone': ['src/messaging/protocol/limits.ts → src/messaging/index.ts'],
  'shipped-code-imports-no-test': ['server/services/test.ts → test/support/helpers.ts'],
  'shipped-code-imports-no-dev-dependency': ['server/services/dev.ts → playwright-core'],
  'app-takes-the-contract-as-types-only': ['src/features/order/bad.ts → types/schemas/order.ts'],
  'contract-values-stay-zod-free': ['types/api.ts → types/contract.ts', 'types/constants.ts → zod'],
  'platform-files-through-their-interface': ['src/features/chat/direct.ts → src/features/chat/platform.h5.ts'],
  'no-unresolvable-import': ['src/core/typo.ts → ./no-such-file'],
};

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
}

/** The package an import resolved into, or the path itself inside the fixture. */
function shortName(path: string): string {
  const inPackages = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(path);
  return inPackages ? inPackages[1] : path;
}

describe('the layering rules of npm run lint', () => {
  let violations: Violation[];
  let fixture: string;

  beforeAll(() => {
    // Laid out as the repository is, with its package.json (dependencies and devDependencies), its node_modules
    // (linked) and its path alias, so that the repository's own configuration judges it unchanged.
    fixture = mkdtempSync(join(tmpdir(), 'lensmate-layering-'));
    for (const [path, source] of Object.entries(files)) {
      mkdirSync(dirname(join(fixture, path)), { recursive: true });
      writeFileSync(join(fixture, path), source);
    }
    copyFileSync(join(root, 'package.json'), join(fixture, 'package.json'));
    symlinkSync(join(root, 'node_modules'), join(fixture, 'node_modules'));
    writeFileSync(
      join(fixture, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '@/*': ['src/*'] }, jsx: 'react-jsx' } }),
    );
    // The repository's configuration; only the link to node_modules is kept as a path inside the tree.
    writeFileSync(
      join(fixture, 'layering.cjs'),
      `const real = require(${JSON.stringify(join(root, '.dependency-cruiser.cjs'))});
module.exports = { ...real, options: { ...real.options, preserveSymlinks: true } };
`,
    );
    const cruise = spawnSync(
      process.execPath,
      [
        join(root, 'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs'),
        'src',
        'server',
        'types',
        '--config',
        'layering.cjs',
        '--output-type',
        'json',
      ],
      { cwd: fixture, encoding: 'utf8', timeout: 60_000 },
    );
    if (!cruise.stdout) throw new Error(`dependency-cruiser printed nothing: ${cruise.stderr}`);
    violations = JSON.parse(cruise.stdout).summary.violations;
  });

  afterAll(() => {
    rmSync(fixture, { recursive: true, force: true });
  });

  it('checks exactly the rules listed here', () => {
    expect(rules.map((rule) => rule.name).sort()).toEqual(Object.keys(expected).sort());
  });

  it.each(Object.entries(expected))('%s reports its bad import and nothing else', (rule, edges) => {
    const reported = violations
      .filter((violation) => violation.rule.name === rule)
      .map((violation) => `${violation.from} → ${shortName(violation.to)}`)
      .sort();
    expect(reported).toEqual([...edges].sort());
  });
});
