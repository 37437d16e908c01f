/**
 * How decode() reaches its validators: preload() through the generated import map, or the Node
 * entry's first-use require(); a module that cannot be loaded is INTERNAL (a packaging fault),
 * never a code that blames the seller. The bundles that remove a chunk are in bundles.test.ts.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { DecodeError } from '../../src/errors/errors.js';
import { decode, safeDecode } from '../../src/decode/decode.js';
import { installSyncLoader, preload } from '../../src/validate/validators.js';

const valid = JSON.parse(readFileSync(new URL('../fixtures/payloads/3.0.26/list_accounts.valid.json', import.meta.url), 'utf8')) as unknown;
const requested: string[] = [];

test('a validator module that cannot be loaded is INTERNAL, names the module and the fix', () => {
  installSyncLoader((file) => {
    requested.push(file);
    throw new Error(`Cannot find module '${file}'`);
  });
  const result = safeDecode('list_accounts', { structuredContent: valid }, { version: '3.0' });
  expect(requested).toEqual(['./generated/v3_0_26/validators/list_accounts.js']);
  expect(result.success).toBe(false);
  if (result.success) return;
  expect(result.error).toBeInstanceOf(DecodeError);
  expect(result.error.code).toBe('INTERNAL');
  expect(result.error.task).toBe('list_accounts');
  expect(result.error.message).toContain('generated/v3_0_26/validators/list_accounts.js');
  expect(result.error.message).toContain('await preload("list_accounts")');
  expect(result.error.message).not.toMatch(/seller (sent|answered)/);
  expect(result.error.cause).toBeInstanceOf(Error);
});

test('preload() loads through the import map, so decode() needs no first-use loading', async () => {
  await preload('list_accounts', '3.0.26');
  const before = requested.length;
  expect(decode('list_accounts', { structuredContent: valid }, { version: '3.0' })).toEqual(valid);
  // A failure needs the listing module, which preload() loaded too.
  const failed = safeDecode('list_accounts', { structuredContent: { accounts: 5 } }, { version: '3.0' });
  expect(failed.success ? 'accepted' : failed.error.code).toBe('SCHEMA_MISMATCH');
  expect(requested.length).toBe(before);
});

test('preload() refuses an unknown task or version', async () => {
  await expect(preload('nope')).rejects.toMatchObject({ code: 'UNKNOWN_TASK' });
  // @ts-expect-error not a bundled version
  await expect(preload('get_products', '9.9.9')).rejects.toMatchObject({ code: 'UNSUPPORTED_VERSION' });
});
