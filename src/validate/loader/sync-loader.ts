/**
 * The type both `#validator-loader` modules export `loadModule` as, apart from validators.ts (which
 * imports a loader), so that no loader imports back the module that imports it.
 */

/**
 * What `#validator-loader` exports as `loadModule`: loads a module synchronously given its path
 * relative to `base` (a module's URL; default the loader's own file, src/validate/loader/), or
 * throws; undefined where the runtime cannot (bundles, browsers, workers: preload() is needed there).
 */
export type SyncModuleLoader = (specifier: string, base?: string) => unknown;
