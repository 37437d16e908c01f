/**
 * `--release <dir>`: the command line speaks a release module `adcp-decode generate` wrote, as
 * decode() does once a buyer imports it: pinned by its version or its pin, picked by `auto` from
 * the answer's `adcp_version`, its tasks listed. A folder without a module, or a module that
 * defines no release here, is a usage error before anything is read.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Beta6Module, GENERATING_MS, loadBeta6Module } from '../fixtures/beta6-module.js';
import { BETA6_PIN, BETA6_VERSION } from '../fixtures/beta6-schemas.js';
import { runCli } from '../fixtures/cli-run.js';
import { mcp } from '../fixtures/envelopes.js';
import { beta6Fixture } from '../fixtures/payloads-beta6.js';

let dir: string;
let answer: string;
/** A beta.6 get_products answer, which announces its release (list_products' schema has no adcp_version). */
let announcing: string;
let module: Beta6Module;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'adcp-cli-release-'));
  answer = path.join(dir, 'list-products.json');
  const listing = beta6Fixture('list_products.valid').payload;
  writeFileSync(answer, JSON.stringify(mcp.structured(listing)));
  announcing = path.join(dir, 'get-products.json');
  const products = beta6Fixture('get_products.valid').payload;
  expect(products['adcp_version']).toBe(BETA6_PIN);
  writeFileSync(announcing, JSON.stringify(mcp.structured(products)));
  writeFileSync(path.join(dir, 'index.js'), 'export const release = { version: "3.2.1" };\n');
});
afterAll(() => {
  module?.remove();
  rmSync(dir, { recursive: true, force: true });
});

describe('before any module is given', () => {
  test('the pre-release is no release this command has; the error names --release', async () => {
    const { exit, stderr } = await runCli(['list_products', answer, '--adcp-version', BETA6_PIN]);
    expect(exit).toBe(2);
    expect(stderr).toContain(`--adcp-version "${BETA6_PIN}" is not a release this command has`);
    expect(stderr).toContain('--release <dir>');
  });

  test('a folder without a module, and a module that defines no release, are usage errors', async () => {
    const none = await runCli(['list_products', answer, '--release', path.join(dir, 'nowhere')]);
    expect(none).toMatchObject({ exit: 2, stdout: '' });
    expect(none.stderr).toContain('no release module there (expected its index.js, written by adcp-decode generate)');
    const stray = await runCli(['list_products', answer, '--release', dir]);
    expect(stray).toMatchObject({ exit: 2, stdout: '' });
    expect(stray.stderr).toContain('the module defines no release in this adcp-decode');
  });
});

describe('with the generated beta.6 module given', () => {
  beforeAll(async () => {
    module = await loadBeta6Module();
  }, GENERATING_MS);

  test.each([
    ['its version', 'list_products', ['--adcp-version', BETA6_VERSION], () => answer],
    ['its pin', 'list_products', ['--adcp-version', BETA6_PIN], () => answer],
    ['auto, from the answer’s adcp_version', 'get_products', [], () => announcing],
  ])('decodes one of its answers, pinned by %s', async (_how, task, pin, file) => {
    const { exit, stdout, stderr } = await runCli([task, file(), '--release', module.folder, ...pin, '--json']);
    expect([exit, stderr]).toEqual([0, '']);
    expect(JSON.parse(stdout)).toMatchObject({ ok: true, task, version: BETA6_VERSION });
  });

  test('lists its tasks', async () => {
    const { exit, stdout } = await runCli(['tasks', '--release', module.folder, '--adcp-version', BETA6_VERSION, '--json']);
    expect(exit).toBe(0);
    const listed = JSON.parse(stdout) as { version: string; tasks: { task: string }[] };
    expect(listed.version).toBe(BETA6_VERSION);
    expect(listed.tasks.map((t) => t.task)).toEqual(expect.arrayContaining(['list_products', 'buy_products', 'refine_proposals']));
    expect(listed.tasks).toHaveLength(72);
  });

  test('auto judges an answer announcing no release by the default, which lacks the task: said, not guessed', async () => {
    const { exit, stdout } = await runCli(['list_products', answer, '--release', module.folder, '--json']);
    expect(exit).toBe(1);
    expect(JSON.parse(stdout)).toMatchObject({ ok: false, error: { code: 'UNKNOWN_TASK' } });
  });
});
