/**
 * Node only: lets decode() load a task's validator module on first use with require(), which
 * loads an ES module synchronously (Node ≥ 20.19 and ≥ 22.12), so decode() needs no preload().
 * Imported by the Node entries; the portable core never imports it.
 */
import { createRequire } from 'node:module';
import { installSyncLoader } from './validate/validators.js';

// Validator paths are relative to src/ (or dist/), where this module sits (see src/layout.ts).
installSyncLoader(createRequire(import.meta.url));
