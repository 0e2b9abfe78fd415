interface AppConfig {
  pages: string[];
  subPackages: { root: string; pages: string[] }[];
}

/** Every route src/app.config.ts registers, as '/pages/...', in app.config order (pages, then subpackages). */
export function registeredRoutes(): string[] {
  (globalThis as { defineAppConfig?: (config: AppConfig) => AppConfig }).defineAppConfig = (config) => config;
  const config = (require('../../../src/app.config') as { default: AppConfig }).default;
  return [
    ...config.pages.map((page) => `/${page}`),
    ...config.subPackages.flatMap((pack) => pack.pages.map((page) => `/${pack.root}/${page}`)),
  ];
}
