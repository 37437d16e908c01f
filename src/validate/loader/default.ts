/**
 * The validator loader outside Node (`#validator-loader`, package.json#imports: bundlers,
 * browsers, workers): none, since a bundle has no synchronous module loader and must not pull
 * `node:module`; a task's validators are loaded by preload() before its first decode.
 */
import type { SyncModuleLoader } from './sync-loader.js';

export const loadModule: SyncModuleLoader | undefined = undefined;
