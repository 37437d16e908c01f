/**
 * The validator loader under Node (`#validator-loader`, package.json#imports, condition `node`):
 * require(), which loads an ES module synchronously (Node ≥ 20.19 and ≥ 22.12), so that decode()
 * loads a task's validators on first use and needs no preload(). Imported by validators.ts, so
 * every entry that decodes gets it, whichever the process imports.
 *
 * It resolves paths relative to itself: it sits at LAYOUT.validatorLoaders in src/ and in dist/
 * alike (bundle-dist compiles it as an entry of its own, in place).
 */
import { createRequire } from 'node:module';
import type { SyncModuleLoader } from './sync-loader.js';

const own = createRequire(import.meta.url);

export const loadModule: SyncModuleLoader | undefined = (specifier, base) => (base === undefined ? own : createRequire(base))(specifier);
