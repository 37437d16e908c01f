/**
 * The benchmark's own correctness (bench/): its payloads are deterministic, near the sizes the
 * table names and valid against 3.1; every path it times decodes (or rejects) what it claims;
 * its baselines judge the payloads as the generated validators do. (The fixes its profiles led to
 * are checked where their modules are tested: test/json/text.test.ts, test/bounds/.) No timing is
 * asserted anywhere.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test, vi } from 'vitest';
import { hot, markdownTable, pairedRatio } from '../../bench/harness.js';
import {
  benchPayloads,
  createMediaBuyResponse,
  deepText,
  getProductsResponse,
  invalidGetProducts,
  mcpStructured,
  mcpText,
  oversizeText,
  rejectionCases,
  utf8Bytes,
} from '../../bench/payloads.js';
import { compileFromBundle } from '../../bench/runtime-ajv.mjs';
import { outputSchema, responseSchemaId, runtimeBundle } from '../../bench/schemas.js';
import { decode, safeDecode } from '../../src/decode/decode.js';
import type { DecodeError } from '../../src/errors/errors.js';
import { V3_1 } from '../fixtures/versions.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MAX_BYTES = 4 * 1024 * 1024;
const payloads = benchPayloads();
const require = createRequire(import.meta.url);
const generated = (task: string) =>
  (require(`../../src/generated/v3_1/validators/${task}.js`) as { response: (d: unknown) => boolean }).response;
type Listing = ((d: unknown) => boolean) & { errors?: Array<{ instancePath: string; keyword: string }> | null };
/** The error-listing module's validator: the fast module gives the verdict only. */
const listing = (task: string) => (require(`../../src/generated/v3_1/validators/${task}.errors.js`) as { response: Listing }).response;

describe('payloads', () => {
  test('are deterministic', () => {
    expect(JSON.stringify(benchPayloads())).toBe(JSON.stringify(payloads));
    expect(JSON.stringify(getProductsResponse(50_000, 3))).toBe(JSON.stringify(getProductsResponse(50_000, 3)));
    expect(JSON.stringify(getProductsResponse(50_000, 3))).not.toBe(JSON.stringify(getProductsResponse(50_000, 4)));
  });

  test('land near the sizes the table names', () => {
    const size = (label: string) => utf8Bytes(JSON.stringify(payloads[label]!.payload));
    expect(size('get_products 2KB')).toBeGreaterThan(1.5 * 1024);
    expect(size('get_products 2KB')).toBeLessThan(2.5 * 1024);
    expect(size('get_products 100KB')).toBeGreaterThan(95 * 1024);
    expect(size('get_products 100KB')).toBeLessThan(105 * 1024);
    expect(size('get_products 1MB')).toBeGreaterThan(0.95 * 1024 * 1024);
    expect(size('get_products 1MB')).toBeLessThan(1.05 * 1024 * 1024);
    // Some text is not ASCII, so the UTF-8 size check is exercised as for multilingual sellers.
    expect(JSON.stringify(payloads['get_products 100KB']!.payload)).toMatch(/[^\x00-\x7f]/);
  });

  test(`are valid AdCP ${V3_1} responses, decoded on both MCP paths to the payload (structuredContent: a plain copy)`, () => {
    for (const { task, payload } of Object.values(payloads)) {
      expect(generated(task)(payload)).toBe(true);
      expect(decode(task, mcpStructured(payload), { version: V3_1 })).toEqual(payload);
      expect(decode(task, mcpText(payload))).toEqual(payload);
    }
    expect(Object.keys(payloads)).toEqual(['get_products 2KB', 'get_products 100KB', 'get_products 1MB', 'create_media_buy']);
    expect(generated('create_media_buy')(createMediaBuyResponse(5))).toBe(true);
  });

  test('the many-errors payload is invalid in every product, and decode lists them all', () => {
    const bad = invalidGetProducts(payloads['get_products 100KB']!.payload);
    const r = safeDecode('get_products', mcpText(bad));
    expect(r.success).toBe(false);
    if (r.success) return;
    expect(r.error.code).toBe('SCHEMA_MISMATCH');
    const issues = (r.error as DecodeError & { issues: unknown[] }).issues;
    expect(issues.length).toBeGreaterThan((bad.products as unknown[]).length);
  });
});

describe('rejection inputs', () => {
  test('4 MiB + 1: exactly one byte over, and refused without being parsed', () => {
    const text = oversizeText(MAX_BYTES);
    expect(utf8Bytes(text)).toBe(MAX_BYTES + 1);
    expect(text.length).toBeLessThanOrEqual(MAX_BYTES); // the UTF-16 length alone cannot tell
    expect(() => JSON.parse(text)).not.toThrow();
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const r = safeDecode('get_products', { content: [{ type: 'text', text }] });
      expect(r.success ? 'decoded' : r.error.code).toBe('TOO_LARGE');
      expect(parse).not.toHaveBeenCalled();
    } finally {
      parse.mockRestore();
    }
  });

  test('every case the rejection benchmark times is refused with the code it names, the oversize ones one byte over', () => {
    const cases = rejectionCases(payloads['get_products 1MB']!.payload, MAX_BYTES);
    expect(cases.map((c) => c.code)).toEqual(['TOO_LARGE', 'TOO_LARGE', 'TOO_DEEP', 'SCHEMA_MISMATCH']);
    for (const c of cases) {
      if (c.code === 'TOO_LARGE') expect(utf8Bytes(c.text)).toBe(MAX_BYTES + 1);
      expect(() => JSON.parse(c.text), c.label).not.toThrow();
      const r = safeDecode('get_products', { content: [{ type: 'text', text: c.text }] });
      expect(r.success ? 'decoded' : r.error.code, c.label).toBe(c.code);
    }
  });

  test('100,000-deep nesting: valid JSON, refused as TOO_DEEP', () => {
    const text = deepText(100_000);
    expect(() => JSON.parse(text)).not.toThrow();
    const r = safeDecode('get_products', { content: [{ type: 'text', text }] });
    expect(r.success ? 'decoded' : r.error.code).toBe('TOO_DEEP');
  });
});

describe('baselines judge as the generated validators do', () => {
  test('run-time compiled Ajv (the same options) and the MCP SDK check on the outputSchema', async () => {
    const { AjvJsonSchemaValidator } = await import('@modelcontextprotocol/sdk/validation/ajv');
    const bundle = runtimeBundle(V3_1);
    const sdk = new AjvJsonSchemaValidator();
    for (const task of ['get_products', 'create_media_buy'] as const) {
      const runtime = compileFromBundle(bundle, responseSchemaId(V3_1, task));
      const schema = outputSchema(V3_1, task);
      expect(JSON.stringify(schema)).not.toMatch(/"\$ref":"\/schemas\//); // self-contained
      const mcp = sdk.getValidator(schema as never);
      const fast = generated(task);
      const samples = Object.values(payloads)
        .filter((p) => p.task === task)
        .map((p) => p.payload);
      if (task === 'get_products')
        samples.push(invalidGetProducts(payloads['get_products 2KB']!.payload), { products: 'none', status: 'completed' });
      else samples.push({ ...createMediaBuyResponse(), packages: 7 });
      for (const sample of samples) {
        const verdict = fast(sample);
        expect(runtime(sample)).toBe(verdict);
        expect(mcp(sample).valid).toBe(verdict);
        if (!verdict) {
          // Run-time Ajv's first error is one the generated listing reports.
          const list = listing(task);
          expect(list(sample)).toBe(false);
          const first = runtime.errors?.[0];
          expect(list.errors).toContainEqual(expect.objectContaining({ instancePath: first?.instancePath, keyword: first?.keyword }));
        }
      }
    }
  }, 240_000);
});

describe('harness', () => {
  test('hot() returns per-call samples and a paired ratio', () => {
    let sink = 0;
    const [a, b] = hot(
      [
        { name: 'a', fn: () => (sink += JSON.stringify(payloads['get_products 2KB']!.payload).length) },
        { name: 'b', fn: () => (sink += JSON.parse(JSON.stringify(payloads['get_products 2KB']!.payload)).products.length) },
      ],
      { rounds: 2, time: 5, iterations: 2 },
    );
    expect(sink).toBeGreaterThan(0);
    for (const r of [a!, b!]) {
      expect(r.roundMedians).toHaveLength(2);
      expect(r.samples.length).toBeGreaterThanOrEqual(4);
      expect(r.batch).toBeGreaterThanOrEqual(1);
    }
    expect(Number.isFinite(pairedRatio(b!, a!))).toBe(true);
  });

  test.skipIf(!existsSync(path.join(ROOT, 'dist', 'index.js')))('a cold-start child decodes what it measures (dist/)', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'adcp-bench-test-'));
    try {
      const input = path.join(dir, 'text.json');
      writeFileSync(input, JSON.stringify(mcpText(payloads['get_products 2KB']!.payload)));
      const jobs = [
        { mode: 'ours', task: 'get_products', calls: 2, input, dist: path.join(ROOT, 'dist', 'index.js') },
        {
          mode: 'floor',
          task: 'get_products',
          calls: 2,
          input,
          validator: path.join(ROOT, 'dist', 'generated', 'v3_1', 'validators', 'get_products.js'),
        },
      ];
      for (const job of jobs) {
        const child = spawnSync(process.execPath, [path.join(ROOT, 'bench', 'child.mjs'), JSON.stringify(job)], { encoding: 'utf8' });
        expect(child.status, child.stderr).toBe(0);
        const r = JSON.parse(child.stdout.trim()) as { ok: boolean; calls: number[]; rssAfterFirstKb: number };
        expect(r.ok).toBe(true);
        expect(r.calls).toHaveLength(2);
        expect(r.rssAfterFirstKb).toBeGreaterThan(0);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test.skipIf(!existsSync(path.join(ROOT, 'dist', 'index.js')))(
    "a cold-start child loads a job's modules before the first call, and fails on one it cannot load (bench/first-failure.ts's parts)",
    () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'adcp-bench-test-'));
      try {
        const input = path.join(dir, 'text-invalid.json');
        writeFileSync(input, JSON.stringify(mcpText(invalidGetProducts(payloads['get_products 2KB']!.payload))));
        const validators = path.join(ROOT, 'dist', 'generated', 'v3_1', 'validators');
        const job = (loaded: string[]) => ({
          mode: 'ours-fail',
          task: 'get_products',
          calls: 1,
          input,
          dist: path.join(ROOT, 'dist', 'index.js'),
          loaded,
        });
        const spawn = (loaded: string[]) =>
          spawnSync(process.execPath, [path.join(ROOT, 'bench', 'child.mjs'), JSON.stringify(job(loaded))], { encoding: 'utf8' });
        const loadedFirst = spawn([path.join(validators, 'get_products.js'), path.join(validators, 'get_products.errors.js')]);
        expect(loadedFirst.status, loadedFirst.stderr).toBe(0);
        expect((JSON.parse(loadedFirst.stdout.trim()) as { ok: boolean }).ok).toBe(true);
        const missing = spawn([path.join(validators, 'no_such_task.errors.js')]);
        expect(missing.status).not.toBe(0);
        expect(missing.stderr).toContain('no_such_task.errors.js');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  test.skipIf(!existsSync(path.join(ROOT, 'dist', 'validate', 'runtime', 'uri-format.js')))(
    'the first-uri-check child accepts what it measures, on both sides',
    () => {
      for (const impl of ['ajv-formats', 'isUri']) {
        const job = { impl, dist: path.join(ROOT, 'dist', 'validate', 'runtime', 'uri-format.js') };
        const child = spawnSync(process.execPath, [path.join(ROOT, 'bench', 'uri-check.mjs'), JSON.stringify(job)], { encoding: 'utf8' });
        expect(child.status, child.stderr).toBe(0);
        const r = JSON.parse(child.stdout.trim()) as { ok: boolean; firstMs: { wall: number; cpu: number }; thousandMs: { wall: number } };
        expect(r.ok).toBe(true);
        expect(Object.keys(r.firstMs)).toEqual(['wall', 'cpu']);
        expect(r.thousandMs.wall).toBeGreaterThan(0);
      }
    },
  );
});

describe('the Markdown table docs/benchmarks.md takes from bench/results.json', () => {
  test('one row a measurement under a bold section row, the verdict in words, pipes escaped', () => {
    const md = markdownTable([
      {
        section: 'hot text',
        name: 'a | b',
        unit: 'ms',
        median: 2.345,
        min: 2,
        max: 3,
        runs: 9,
        baseline: 'parse',
        ratio: 1.0449,
        goal: '<= 1.15',
        holds: true,
      },
      { section: 'hot text', name: 'c', unit: 'MB', median: 12.34, min: 12, max: 13, runs: 1, ratio: 12.5, goal: '<= 1', holds: false },
      { section: 'package', name: 'd', unit: 'files', median: 1442, min: 1442, max: 1442, runs: 1 },
    ]).split('\n');
    expect(md).toEqual([
      '| measurement | median | ratio | ÷ | goal |',
      '|---|---|---|---|---|',
      '| **hot text** | | | | |',
      '| a \\| b | 2.35 ms | 1.045 | parse | <= 1.15 holds |',
      '| c | 12.3 MB | 12.5 |  | <= 1 missed |',
      '| **package** | | | | |',
      '| d | 1442 files |  |  |  |',
    ]);
  });
});
