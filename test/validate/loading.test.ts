/**
 * How decode() reaches its validators: `#validator-loader` (package.json#imports; tsconfig.json's
 * `paths` point the repository's code at the Node one) loads them on first use in Node, and where
 * it is the default one (bundles, browsers, workers) only preload() loads them. A module that
 * cannot be loaded, or is not preloaded, is INTERNAL naming the fix, never a code that blames the
 * seller; preload() refuses what is not a task name or an array of them with a typed error.
 * The packed package's entries, each alone, are in test/package/package.test.ts; the bundles that
 * remove a chunk in bundles.test.ts.
 */
import { existsSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { beforeEach, describe, expect, expectTypeOf, test, vi } from 'vitest';
import { decode, safeDecode } from '../../src/decode/decode.js';
import { DecodeError } from '../../src/errors/errors.js';
import { LAYOUT } from '../../src/layout.js';
import * as defaultLoader from '../../src/validate/loader/default.js';
import * as nodeLoader from '../../src/validate/loader/node.js';
import type { SyncModuleLoader } from '../../src/validate/loader/sync-loader.js';
import { preload } from '../../src/validate/preload.js';
import { payload } from '../fixtures/payloads.js';
import { V3_0, V3_1 } from '../fixtures/versions.js';

/** The loader validators.ts sees: the real Node one, or a stand-in set by a test. */
const seen = vi.hoisted(() => ({ loader: 'node' as 'node' | SyncModuleLoader | undefined, requested: [] as string[] }));
vi.mock('#validator-loader', async (importOriginal) => {
  const real = await importOriginal<{ loadModule: SyncModuleLoader | undefined }>();
  return {
    get loadModule(): SyncModuleLoader | undefined {
      if (seen.loader !== 'node') return seen.loader;
      return (specifier: string) => {
        seen.requested.push(specifier);
        return real.loadModule?.(specifier);
      };
    },
  };
});

beforeEach(() => {
  seen.loader = 'node';
  seen.requested.length = 0;
});

const mcp = (body: unknown) => ({ structuredContent: body });
const root = new URL('../../', import.meta.url);

describe('#validator-loader', () => {
  test('both targets export the same thing; only the Node one loads, by a path relative to itself', () => {
    expectTypeOf(defaultLoader).toEqualTypeOf(nodeLoader);
    expect(Object.keys(defaultLoader)).toEqual(Object.keys(nodeLoader));
    expect(defaultLoader.loadModule).toBeUndefined();
    const toRoot = '../'.repeat(LAYOUT.validatorLoaders.split('/').length);
    const mod = nodeLoader.loadModule?.(`${toRoot}${LAYOUT.generated}/v3_1/validators/get_products.js`);
    expect(typeof (mod as { response?: unknown }).response).toBe('function');
  });

  test('package.json#imports: Node gets the Node loader, bundlers and the rest the default one, both in the loaders folder', () => {
    const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { imports: Record<string, Record<string, string>> };
    const targets = pkg.imports['#validator-loader']!;
    const folder = `./dist/${LAYOUT.validatorLoaders}/`;
    expect(targets.node).toBe(`${folder}node.js`);
    // A bundler's `module` condition (esbuild, webpack, even for Node) comes before `node`: bundles have no require().
    const order = Object.keys(targets);
    expect(order.indexOf('module')).toBeLessThan(order.indexOf('node'));
    for (const [condition, target] of Object.entries(targets)) {
      if (condition !== 'node') expect(target, condition).toBe(`${folder}default.js`);
      expect(existsSync(new URL(`src/${target.slice('./dist/'.length).replace(/\.js$/, '.ts')}`, root)), target).toBe(true);
    }
  });

  test('in Node, decode() loads a task on first use, without preload(), through the loader', () => {
    const body = payload('3.0/get_signals.valid');
    expect(decode('get_signals', mcp(body), { version: '3.0' })).toEqual(body);
    expect(seen.requested).toEqual([`../../${LAYOUT.generated}/v3_0/validators/get_signals.js`]);
  });
});

describe('a validator module that is not loaded is INTERNAL, with the fix', () => {
  test('a module that fails to load names the module and the packaging fault', () => {
    seen.loader = (specifier) => {
      seen.requested.push(specifier);
      throw new Error(`Cannot find module '${specifier}'`);
    };
    const result = safeDecode('list_accounts', mcp(payload('3.0/list_accounts.valid')), { version: '3.0' });
    expect(seen.requested).toEqual([`../../${LAYOUT.generated}/v3_0/validators/list_accounts.js`]);
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.error).toBeInstanceOf(DecodeError);
    expect(result.error).toMatchObject({ code: 'INTERNAL', task: 'list_accounts', version: V3_0 });
    expect(result.error.message).toContain('generated/v3_0/validators/list_accounts.js (loading it failed)');
    expect(result.error.message).not.toMatch(/seller (sent|answered)|\n/);
    expect(result.error.cause).toBeInstanceOf(Error);
  });

  test('where the runtime cannot load on first use: preload() with the version, not the seller', () => {
    seen.loader = undefined;
    const result = safeDecode('create_media_buy', mcp(payload('3.1/create_media_buy.valid')), { version: '3.1' });
    expect(result.success ? 'decoded' : result.error.code).toBe('INTERNAL');
    if (result.success) return;
    expect(result.error.message).toContain(`adcp-decode has not loaded the AdCP ${V3_1} validators of create_media_buy`);
    expect(result.error.message).toContain(`call \`await preload("create_media_buy", "${V3_1}")\` before decoding`);
    expect(result.error.message).not.toMatch(/announces|\n/);
  });

  test("under version 'auto', the release the seller announced and how to preload it, or pin the version", () => {
    seen.loader = undefined;
    const body = { ...payload('3.0/get_media_buys.valid'), adcp_version: '3.0' };
    const result = safeDecode('get_media_buys', mcp(body));
    expect(result.success ? 'decoded' : result.error.code).toBe('INTERNAL');
    if (result.success) return;
    expect(result.error.version).toBe(V3_0);
    expect(result.error.message).toContain(`the seller's answer announces adcp_version "3.0", which version 'auto' judges by AdCP ${V3_0}`);
    expect(result.error.message).toContain(`call \`await preload("get_media_buys", "${V3_0}")\` before decoding, or pin the version`);
    // A newer release judged by the newest bundled one: the message names both.
    const newer = safeDecode('get_media_buys', mcp({ ...payload('3.1/get_media_buys.valid'), adcp_version: '3.7' }), {
      newerRelease: 'newest',
    });
    expect(newer.success ? 'decoded' : newer.error.message).toContain(
      `announces adcp_version "3.7", which version 'auto' judges by AdCP ${V3_1}, whose validators of get_media_buys are not loaded`,
    );
  });
});

describe('preload()', () => {
  test('loads through the import map, so decode() loads nothing itself', async () => {
    seen.loader = undefined;
    await preload('get_media_buy_delivery', V3_0);
    const body = payload('3.0/get_media_buy_delivery.valid');
    expect(decode('get_media_buy_delivery', mcp(body), { version: '3.0' })).toEqual(body);
    // A failure needs the listing module, which preload() loaded too.
    const failed = safeDecode('get_media_buy_delivery', mcp({ ...body, currency: 5 }), { version: '3.0' });
    expect(failed.success ? 'accepted' : failed.error.code).toBe('SCHEMA_MISMATCH');
  });

  test("loads the task's patch fallback too: where only preload() loads, an answer an earlier patch accepts is still that patch's", async () => {
    seen.loader = undefined;
    await preload('get_adcp_capabilities', V3_0);
    // A 3.0.6 sales seller's capabilities: no `account`, which 3.0 requires and 3.0.5 to 3.0.11 do not.
    const sdk306 = {
      adcp: { major_versions: [3], idempotency: { supported: true, replay_ttl_seconds: 86400 } },
      supported_protocols: ['media_buy'],
      media_buy: { supported_pricing_models: ['cpm'] },
    };
    expect(safeDecode('get_adcp_capabilities', mcp(sdk306), { version: '3.0' })).toMatchObject({ success: true, patch: '3.0.11' });
  });

  test('refuses an unknown task or version', async () => {
    await expect(preload('nope')).rejects.toMatchObject({ code: 'UNKNOWN_TASK' });
    // @ts-expect-error not a bundled version
    await expect(preload('get_products', '9.9.9')).rejects.toMatchObject({ code: 'UNSUPPORTED_VERSION' });
    // @ts-expect-error not a version at all
    await expect(preload('get_products', { toString: () => V3_1 })).rejects.toMatchObject({ code: 'UNSUPPORTED_VERSION' });
  });

  /** Anything a JavaScript caller can pass that is not a task name or an array of them. */
  const notTasks = fc.oneof(
    fc.anything().filter((v) => typeof v !== 'string' && !Array.isArray(v)),
    fc.array(fc.anything(), { minLength: 1 }).filter((list) => list.some((v) => typeof v !== 'string')),
    fc.array(fc.constantFrom('get_products', 'list_accounts')).chain((list) =>
      fc.constantFrom<unknown>(
        { ...Object.fromEntries(list.entries()), length: list.length },
        new Set(list),
        new Map(list.map((t) => [t, t])),
        list.values(),
        { [Symbol.iterator]: () => list.values() },
        new Proxy([], {
          get() {
            throw new TypeError('no');
          },
        }),
      ),
    ),
  );

  test('refuses what is not a string or an array of strings with INVALID_OPTION, never a raw error', async () => {
    await fc.assert(
      fc.asyncProperty(notTasks, async (tasks) => {
        const error = await preload(tasks as string[]).then(
          () => 'loaded',
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(DecodeError);
        expect(error).toMatchObject({ code: 'INVALID_OPTION' });
        expect((error as DecodeError).message).toMatch(/^preload\(\) takes a task name or an array of task names; [^\n]{1,80}$/);
      }),
      { numRuns: 300 },
    );
  });
});
