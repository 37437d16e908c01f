/**
 * The receiver's defaults are documented numbers in docs/webhooks.md, not exports: each constant
 * must still be what that page says, so that a changed default fails here until the page says so too.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { REPO_ROOT } from '../../scripts/schema-paths.js';
import { DEFAULT_DEDUP_MAX_BYTES } from '../../src/signatures/replay/dedup.js';
import { DEFAULT_AGGREGATE_CAP, DEFAULT_PER_KEYID_CAP, DEFAULT_REPLAY_MAX_BYTES } from '../../src/signatures/replay/replay.js';
import { JWKS_MAX_BYTES } from '../../src/signatures/verify/jwks.js';
import {
  DEFAULT_BODY_TIMEOUT_MS,
  DEFAULT_KEYS_TIMEOUT_MS,
  DEFAULT_STORE_TIMEOUT_MS,
  DEFAULT_WEBHOOK_MAX_BYTES,
  MIN_DEDUP_RETENTION_SECONDS,
} from '../../src/webhooks/receiver-options.js';

const page = readFileSync(path.join(REPO_ROOT, 'docs/webhooks.md'), 'utf8').replace(/\s+/g, ' ');
const MiB = 1024 * 1024;

test.each([
  ['body bound', DEFAULT_WEBHOOK_MAX_BYTES, 1_000_000, 'body at most 1 MB (`maxBodyBytes`'],
  ['body deadline', DEFAULT_BODY_TIMEOUT_MS, 10_000, 'whole within 10 s (`bodyTimeoutMs`'],
  ['key deadline', DEFAULT_KEYS_TIMEOUT_MS, 15_000, '`keysTimeoutMs` (15 s)'],
  ['store deadline', DEFAULT_STORE_TIMEOUT_MS, 2_000, '`storeTimeoutMs` (2 s)'],
  ['JWKS bound', JWKS_MAX_BYTES, 256 * 1024, 'fetched with a 256 KiB bound'],
  ['replay per keyid', DEFAULT_PER_KEYID_CAP, 100_000, '100,000 entries per `keyid`'],
  ['replay in all', DEFAULT_AGGREGATE_CAP, 1_000_000, '1,000,000 in all'],
  ['replay bytes', DEFAULT_REPLAY_MAX_BYTES, 64 * MiB, 'at most 64 MiB as it'],
  ['dedup bytes', DEFAULT_DEDUP_MAX_BYTES, 64 * MiB, '(64 MiB as it counts bytes'],
  ['dedup retention floor', MIN_DEDUP_RETENTION_SECONDS, 86_400, 'a retention beyond 24 h'],
])('the %s is the number docs/webhooks.md documents', (_name, actual, documented, phrase) => {
  expect(actual).toBe(documented);
  expect(page).toContain(phrase);
});
