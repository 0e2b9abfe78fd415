/**
 * The layering of the README's Layout, checked by `npm run lint` (`depcruise`). Every import counts, type-only
 * imports too: a type pulled from the wrong layer ties the layers together as much as a value does.
 * test/unit/layering.test.ts feeds each rule a deliberately bad import and sees it fail.
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'sdk-imports-nothing-of-the-app',
      comment:
        'The messaging SDK (src/messaging) is GoEasy 2.8 for any app: it imports nothing of the rest of src/, of the ' +
        "shop's API contract (types/) or of the server.",
      severity: 'error',
      from: { path: '^src/messaging/' },
      to: { path: '^(src/(?!messaging/)|types/|server/)' },
    },
    {
      name: 'core-knows-no-feature',
      comment:
        'src/core (request, storage, navigation) serves every feature and knows none: no features, pages, ui, SDK ' +
        'or app shell.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '^src/(features|pages|ui|messaging|custom-tab-bar)/|^src/app\\.' },
    },
    {
      name: 'utils-are-pure',
      comment:
        'src/utils holds pure rules of the spec: no Taro, no React, no state (jotai or src/state), no features; ' +
        'nothing of src/ outside utils.',
      severity: 'error',
      from: { path: '^src/utils/' },
      to: { path: '^src/(?!utils/)|(^|/)node_modules/(@tarojs/|jotai/|react/|react-dom/)' },
    },
    {
      name: 'state-knows-no-feature',
      comment: 'src/state holds the atoms every feature shares; it knows no feature, page, component or SDK.',
      severity: 'error',
      from: { path: '^src/state/' },
      to: { path: '^src/(features|pages|ui|messaging|custom-tab-bar)/|^src/app\\.' },
    },
    {
      name: 'ui-is-presentational',
      comment: 'src/ui holds shared presentational components: no features, pages or SDK.',
      severity: 'error',
      from: { path: '^src/ui/' },
      to: { path: '^src/(features|pages|messaging)/|^src/app\\.' },
    },
    {
      name: 'pages-stay-thin',
      comment:
        'A page composes features, ui, core, state and utils; it does not speak to the SDK itself (features/chat ' +
        'and features/cs do) nor reach into the app shell.',
      severity: 'error',
      from: { path: '^src/pages/' },
      to: { path: '^src/(messaging|custom-tab-bar)/|^src/app\\.' },
    },
    {
      name: 'pages-import-no-other-page',
      comment:
        "A page folder is one route: what two pages share belongs in features/ or ui/, not in one page's folder.",
      severity: 'error',
      from: { path: '^src/pages/([^/]+)/' },
      to: { path: '^src/pages/', pathNot: '^src/pages/$1/' },
    },
    {
      name: 'features-do-not-import-pages',
      comment: 'Features are used by pages, never the other way round; they do not know the app shell either.',
      severity: 'error',
      from: { path: '^src/features/' },
      to: { path: '^src/(pages|custom-tab-bar)/|^src/app\\.' },
    },
    {
      name: 'app-reaches-the-server-over-http-only',
      comment:
        'The app (src/) and its build config reach the server over HTTP only; the shapes they share live in types/.',
      severity: 'error',
      from: { path: '^(src|config)/' },
      to: { path: '^server/' },
    },
    {
      name: 'types-import-nothing-of-app-or-server',
      comment: 'types/ is the contract between src/ and server/: it depends on neither.',
      severity: 'error',
      from: { path: '^types/' },
      to: { path: '^(src|server)/' },
    },
    {
      name: 'app-takes-the-contract-as-types-only',
      comment:
        'The contract map (types/contract.ts) and its zod schemas (types/schemas/) type the app; the app imports them ' +
        'with `import type`, which the build erases, so neither zod nor a schema reaches the app bundles.',
      severity: 'error',
      from: { path: '^(src|config)/' },
      to: { path: '^types/(contract\\.ts|schemas/)', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'contract-values-stay-zod-free',
      comment:
        'types/api.ts and types/constants.ts are what the app imports as values (constants such as ORDER_STATUSES): ' +
        'they import the schemas, the contract map and zod for types only.',
      severity: 'error',
      from: { path: '^types/(api|constants)\\.ts$' },
      to: {
        path: '^types/(contract\\.ts|schemas/)|(^|/)node_modules/zod/',
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'db-knows-no-route',
      comment:
        'server/db (tables, migrations, seed) knows no route: nothing of server/api, the HTTP helpers, the auth ' +
        'hooks or the app that registers them.',
      severity: 'error',
      from: { path: '^server/db/' },
      to: { path: '^server/(api/|app\\.ts|http\\.ts|auth\\.ts|upload-files\\.ts|main\\.ts)' },
    },
    {
      name: 'db-knows-no-messaging-handler',
      comment:
        'server/db owns every table and migration, the messaging tables included (messaging-migrations.ts, ' +
        'messaging-schema.ts); it knows nothing of the messaging server.',
      severity: 'error',
      from: { path: '^server/db/' },
      to: { path: '^server/messaging/' },
    },
    {
      name: 'server-imports-no-app',
      comment:
        'The server shares the contract (types/) and the pure rules (src/utils) with the app, and the messaging ' +
        'protocol (src/messaging/protocol/: names, limits, texts, wire shapes) with the SDK; nothing else of src/.',
      severity: 'error',
      from: { path: '^server/' },
      to: { path: '^src/(?!utils/|messaging/protocol/)' },
    },
    {
      name: 'protocol-stands-alone',
      comment:
        'The messaging protocol (src/messaging/protocol/) is shared by the SDK and the server, so it imports ' +
        'nothing outside its folder: no Taro, no Node, no other SDK file.',
      severity: 'error',
      from: { path: '^src/messaging/protocol/' },
      to: { pathNot: '^src/messaging/protocol/' },
    },
    {
      name: 'shipped-code-imports-no-test',
      comment: 'The app, the server and the contract never load test code.',
      severity: 'error',
      from: { path: '^(src|server|types|config)/' },
      to: { path: '^test/' },
    },
    {
      name: 'shipped-code-imports-no-dev-dependency',
      comment:
        'What runs in production (the server, the app) uses dependencies only; a devDependency is absent after ' +
        '`npm ci --omit=dev`. Type-only imports are erased and may use one.',
      severity: 'error',
      from: { path: '^(src|server)/' },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'platform-files-through-their-interface',
      comment:
        'A module with per-platform files (x.h5.ts, x.weapp.ts) is imported as `./x`, typed by x.d.ts, and the ' +
        "build picks the platform's file; naming one platform's file would ship it to the other.",
      severity: 'error',
      from: {},
      to: { path: '\\.(h5|weapp)\\.tsx?$' },
    },
    {
      name: 'no-unresolvable-import',
      comment: 'An import the resolver cannot find is a typo or a missing package.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Only the repository's own build and run output; packages stay in the graph (doNotFollow keeps their insides
    // out) so that the rules can see which package a layer imports.
    exclude: { path: '^(dist|coverage|test-output|\\.node|\\.swc)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs', '.json', '.d.ts'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    skipAnalysisNotInRules: true,
  },
};
