/**
 * Node only: lets decode() load a task's validator module on first use with require(), which
 * loads an ES module synchronously (Node ≥ 20.19 and ≥ 22.12), so decode() needs no preload().
 * Imported by the Node entries; the portable core never imports it.
 */
import { createRequire } from 'node:module';
import { installSyncLoader } from './validators.js';

// Paths are relative to validators.js, which sits beside this module.
installSyncLoader(createRequire(import.meta.url));
