/**
 * The benchmark suite (issue 7): adcp-decode against its floor and its peers, in one run, on the
 * same generated payloads (bench/payloads.ts), as ratios.
 *
 *   npm run bench            build, then run everything (under 5 minutes on this 2-core machine)
 *   npx tsx bench/run.ts     run against the current dist/ (npm run compile first)
 *        --quick             fewer rounds and processes (a smoke run; figures are rougher)
 *        --only=a,b          only these sections: cold, uri, text, structured, peers, rejections, hostile, typecheck, webhooks, package, encode, weight, patches, firstfail, calltask, waitfortask, events, generate, generated
 *   BENCH_CLOCK=wall         time the hot loops in wall time instead of CPU time
 *   BENCH_BEFORE=<dist/>     the structured, events and generate sections also measure that earlier build
 *
 * Prints a table and writes bench/results.json (git-ignored): per measurement the median, min,
 * max and number of runs, and the ratio to its baseline (with the goal, where the issue sets one).
 * The peers that need other packages (@adcp/client) come from bench/peers, installed on first use
 * with `npm ci --prefix bench/peers`.
 *
 * Sections:
 *   cold        fresh `node` processes (bench/child.mjs): import + first decode against Ajv
 *               compiling the same schemas at run time, the MCP SDK's outputSchema compilation
 *               and @adcp/client; the same for a Node bundle (esbuild, split per task) and for a
 *               first failing decode; peak RSS; the first 10 decodes against the floor.
 *   uri         (also run by cold) fresh processes: the first, next 100 and next 1,000 `uri` format
 *               checks, ajv-formats' regex against isUri (bench/uri-check.mjs).
 *   text        hot decode of an MCP result with the JSON in content[0].text, against the floor
 *               (JSON.parse + a bare call of the same precompiled validator).
 *   structured  hot decode of structuredContent against the text decode of the same payload and
 *               against the bare validator; its copy walk alone; with BENCH_BEFORE, that build's
 *               structuredContent decode in the same rounds (after ÷ before).
 *   peers       the MCP SDK client's own outputSchema check (allErrors), a run-time compiled Ajv
 *               validator and @adcp/client's Zod validation, each in a process of its own beside
 *               our structuredContent decode (bench/peer-hot.ts).
 *   rejections  oversize, too deep and invalid payloads, against JSON.parse of the same text.
 *   hostile     payloads built to hit a cost class (issue 11): a 4 MiB get_products whose map key
 *               makes Ajv's pointer escaping quadratic, against a plain 4 MiB get_products.
 *   typecheck   tsc --noEmit of a small consumer, adcp-decode against @adcp/client (bench/typecheck.ts).
 *   webhooks    receiver.receive() of a signed 10 KB and 20 KB create_media_buy webhook against WebCrypto's
 *               bare verify + digest + JSON.parse + validator, with the ratio's parts in the same rounds
 *               (WebCrypto alone, the signature checklist alone, a receiver keeping no recent outcome), and
 *               the verifier's pre-authentication cost on a Signature-Input at the 8 and 16 KiB bounds ÷ a
 *               normal one (bench/webhooks.ts).
 *   package     packed and unpacked size and file count of the tarball (npm pack --dry-run), ours
 *               and the peers' (@adcp/client, @adcp/sdk: fetched from the registry, or a note).
 *   encode      encode() of a small and a large create_media_buy request against the bare request
 *               validator on the same arguments, stamped (bench/encode.ts).
 *   patches     fresh processes: import + first decode of a 3.0 capabilities answer the bundled patch refuses
 *               and an earlier GA patch accepts, against one the bundled patch accepts (bench/patches.ts).
 *   firstfail   fresh processes: the first failing get_products decode (~100 KB, every product broken) ÷ a passing
 *               one, and again with the patch fallback's or the listing's modules loaded before the clock: what
 *               each part of a first failure costs (bench/first-failure.ts).
 *   weight      esbuild browser bundles of adcp-decode/3.1 (split and minified; one file), what the
 *               first get_products decode loads in them, and per release its validator code and the
 *               share the other releases ship too (bench/weight.ts).
 *   waitfortask waitForTask's own cost per poll (in-process client answering at once, zero-delay
 *               clock) against a hand-written poll loop over the same client (bench/wait-for-task.ts).
 *   events      callTask with option onEvent against callTask without, in-process client answering at once, in
 *               processes of their own; with BENCH_BEFORE=<dist/ of a build without events>, without a listener
 *               ÷ that build, each in its own processes (bench/events.ts, bench/events-child.mjs).
 *   generate    `adcp-decode generate` of AdCP 3.2.0-beta.6 from its folder, fresh processes (goal ≤ 60 s); with
 *               BENCH_BEFORE=<dist/ of a build without the generator>, the tarball and the adcp-decode/3.1 bundles
 *               ÷ that build's (goal ≤ 1: they do not grow; bench/generate.ts).
 *   generated   3.2.0-beta.6's generated module decoding a ~100 KB get_products ÷ its floor, against the bundled
 *               3.1.19's ratio in the same rounds, both in a process of their own (goal ≤ 1.1; bench/generated-release.ts).
 *
 * To see where the time goes: `npx tsx bench/profile.ts <case>` (node --cpu-prof, summarized);
 * what each check of the structuredContent copy costs: `npx tsx bench/walk-costs.ts`.
 * The latest figures and what they mean: docs/benchmarks.md.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { countMembers } from '../src/json/duplicate-keys.js';
import { V3_1 } from '../test/fixtures/versions.js';
import { callTaskBench } from './call-task.js';
import { encodeBench } from './encode.js';
import { eventsBench } from './events.js';
import { firstFailureBench } from './first-failure.js';
import { generateBench } from './generate.js';
import { generatedReleaseBench } from './generated-release.js';
import {
  CLOCK,
  goal,
  goalAtLeast,
  type HotOptions,
  type HotResult,
  hot,
  lastJsonLine,
  type Measurement,
  measure,
  median,
  pairedRatio,
  run,
  summarize,
  table,
} from './harness.js';
import { patchBench } from './patches.js';
import {
  benchPayloads,
  getProductsResponse,
  invalidGetProducts,
  type Json,
  mcpStructured,
  mcpText,
  quadraticKeysGetProducts,
  rejectionCases,
  utf8Bytes,
} from './payloads.js';
import type { RuntimeValidator } from './runtime-ajv.mjs';
import { outputSchema, responseSchemaId, runtimeBundle } from './schemas.js';
import { typecheckOnce, writeConsumer } from './typecheck.js';
import { waitForTaskBench } from './wait-for-task.js';
import { webhookBench } from './webhooks.js';
import { weightBench } from './weight.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST_INDEX = path.join(ROOT, 'dist', 'index.js');
const PEERS = path.join(ROOT, 'bench', 'peers');
const VERSION = V3_1;
const FOLDER = 'v3_1';
const MAX_BYTES = 4 * 1024 * 1024;

const args = process.argv.slice(2);
const QUICK = args.includes('--quick');
const only = args
  .find((a) => a.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',');
const wanted = (section: string): boolean => only === undefined || only.includes(section);

const measurements: Measurement[] = [];
const rounds = (n: number): number => (QUICK ? Math.max(2, n >> 1) : n);
const notes: string[] = [];
const log = (line: string): void => void process.stderr.write(`bench: ${line}\n`);

/** Reads every value of a JSON tree and nothing more: the least any safety walk can cost. */
function visitAll(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 1;
  let n = 1;
  if (Array.isArray(value)) for (const child of value) n += visitAll(child);
  else for (const key in value) n += visitAll((value as Record<string, unknown>)[key]);
  return n;
}

type DecodeFn = (task: string, input: unknown, options?: object) => unknown;
type SafeDecodeFn = (task: string, input: unknown, options?: object) => { success: boolean; error?: { code: string } };

interface Payload {
  readonly label: string;
  readonly task: 'get_products' | 'create_media_buy';
  readonly payload: { [key: string]: Json };
  readonly text: ReturnType<typeof mcpText>;
  readonly structured: ReturnType<typeof mcpStructured>;
  readonly bytes: number;
}

/** Installs bench/peers on demand; false (with a note) when that fails, e.g. offline. */
async function ensurePeers(): Promise<boolean> {
  if (existsSync(path.join(PEERS, 'node_modules', '@adcp', 'client'))) return true;
  log('installing bench/peers (npm ci --prefix bench/peers) ...');
  try {
    await run('npm', ['ci', '--prefix', PEERS]);
    return true;
  } catch (error) {
    notes.push(`peers: npm ci --prefix bench/peers failed, so @adcp/client rows are missing: ${String(error).slice(0, 300)}`);
    return false;
  }
}

async function main(): Promise<void> {
  const started = performance.now();
  const load0 = os.loadavg();
  if (!existsSync(DIST_INDEX)) throw new Error('dist/ is missing: run `npm run bench` (builds first) or `npm run compile`');
  const peers = await ensurePeers();
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'adcp-bench-'));
  try {
    const lib = (await import(pathToFileURL(DIST_INDEX).href)) as { decode: DecodeFn; safeDecode: SafeDecodeFn };
    const require = createRequire(import.meta.url);
    const validatorFile = (task: string) => path.join(ROOT, 'dist', 'generated', FOLDER, 'validators', `${task}.js`);
    // The very module decode() loads (same path, same require cache): the floor calls the same function.
    const fast = (task: string) => (require(validatorFile(task)) as { response: RuntimeValidator }).response;

    const generated = benchPayloads();
    const payloads: Payload[] = Object.entries(generated).map(([label, { task, payload }]) => ({
      label,
      task,
      payload,
      text: mcpText(payload),
      structured: mcpStructured(payload),
      bytes: utf8Bytes(JSON.stringify(payload)),
    }));
    for (const p of payloads) {
      // The benchmark decodes what it measures: every payload passes both paths before any timing.
      lib.decode(p.task, p.text);
      lib.decode(p.task, p.structured);
      if (!fast(p.task)(p.payload)) throw new Error(`${p.label} fails the ${p.task} validator`);
    }

    if (wanted('cold')) await cold(tmp, payloads.find((p) => p.label === 'get_products 100KB')!, peers, validatorFile);
    if (wanted('cold') || wanted('uri')) await firstUriChecks();

    const goalSizes = new Set(['get_products 100KB', 'get_products 1MB']);
    // Many short rounds (about 10 ms of each case per round), so that the two cases of a ratio
    // alternate often and a change in machine load hits both; a 1 MB case takes 2 calls a round.
    const opts = (p: Payload): HotOptions => ({
      rounds: rounds(goalSizes.has(p.label) ? 41 : 21),
      time: 10,
      iterations: p.bytes > 500_000 ? 2 : 3,
    });

    if (wanted('text')) {
      log('hot: text path');
      for (const p of payloads) {
        const validate = fast(p.task);
        const text = p.text.content[0]!.text;
        const [floor, ours, counted] = hot(
          [
            { name: `floor: JSON.parse + validator, ${p.label}`, fn: () => validate(JSON.parse(text)) },
            { name: `decode content[0].text, ${p.label}`, fn: () => lib.decode(p.task, p.text) },
            // The duplicate-key guarantee's own floor: the member count decode compares with the parsed keys.
            {
              name: `floor + the duplicate-key count, ${p.label}`,
              fn: () => validate(JSON.parse(text)) && countMembers(text) > 0,
            },
          ],
          opts(p),
        );
        const ratio = pairedRatio(ours!, floor!);
        measurements.push(summarize('hot decode, text path (÷ floor)', floor!));
        measurements.push(
          summarize('hot decode, text path (÷ floor)', ours!, {
            baseline: 'floor',
            ratio,
            ...(goalSizes.has(p.label) ? goal(1.1, ratio) : {}),
          }),
        );
        measurements.push(
          summarize('hot decode, text path (÷ floor)', counted!, { baseline: 'floor', ratio: pairedRatio(counted!, floor!) }),
        );
        measurements.push(
          summarize('hot decode, text path (÷ floor)', ours!, {
            name: `decode content[0].text ÷ floor + the duplicate-key count, ${p.label}`,
            baseline: 'floor + the duplicate-key count',
            ratio: pairedRatio(ours!, counted!),
          }),
        );
      }
    }

    if (wanted('structured')) {
      log('hot: structuredContent path');
      // decode() reads a seller's structuredContent once, into a plain copy it checks (bounds,
      // prototype keys, JSON data only) and then validates and returns. Its goals (issue 40): at
      // most 0.8 of decoding the same payload sent as text (it skips a parse), and at most 1.3 of
      // the bare validator. The copy
      // walk alone and a bare visit of every value (any walk's floor: no check, no copy) are
      // measured in the same rounds. From src/: dist/ is bundled, so the walk has no module there.
      const { snapshot } = await import('../src/bounds/snapshot.js');
      const bounds = { maxBytes: 4 * 1024 * 1024, maxDepth: 64, maxNodes: 1_000_000 };
      const section = 'hot decode, structuredContent path (÷ text decode of the same payload, ÷ bare validator)';
      // BENCH_BEFORE=<dist/ of an earlier build>: that build's structuredContent decode, a sixth arm of the same rounds.
      const beforeDir = process.env.BENCH_BEFORE === undefined ? undefined : path.resolve(process.env.BENCH_BEFORE);
      const before =
        beforeDir === undefined
          ? undefined
          : ((await import(pathToFileURL(path.join(beforeDir, 'index.js')).href)) as { decode: DecodeFn });
      for (const p of payloads) {
        const validate = fast(p.task);
        before?.decode(p.task, p.structured);
        const [bare, text, ours, walk, visit, earlier] = hot(
          [
            { name: `bare validator, ${p.label}`, fn: () => validate(p.payload) },
            { name: `decode content[0].text, ${p.label}`, fn: () => lib.decode(p.task, p.text) },
            { name: `decode structuredContent, ${p.label}`, fn: () => lib.decode(p.task, p.structured) },
            {
              name: `its copy walk alone (read once, check, copy), ${p.label}`,
              fn: () => snapshot(p.payload, bounds, { what: 'structuredContent' }),
            },
            { name: `a bare visit of every value (no checks), ${p.label}`, fn: () => visitAll(p.payload) },
            ...(before === undefined
              ? []
              : [{ name: `BENCH_BEFORE build: decode structuredContent, ${p.label}`, fn: () => before.decode(p.task, p.structured) }]),
          ],
          opts(p),
        );
        const perText = pairedRatio(ours!, text!);
        const perBare = pairedRatio(ours!, bare!);
        const goalSize = goalSizes.has(p.label);
        measurements.push(summarize(section, bare!));
        measurements.push(summarize(section, text!, { baseline: 'bare validator', ratio: pairedRatio(text!, bare!) }));
        measurements.push(summarize(section, ours!, { baseline: 'text decode', ratio: perText, ...(goalSize ? goal(0.8, perText) : {}) }));
        measurements.push(
          summarize(
            section,
            { ...ours!, name: `${ours!.name} ÷ bare validator` },
            { baseline: 'bare validator', ratio: perBare, ...(goalSize ? goal(1.3, perBare) : {}) },
          ),
        );
        measurements.push(summarize(section, walk!, { baseline: 'bare validator', ratio: pairedRatio(walk!, bare!) }));
        measurements.push(summarize(section, visit!, { baseline: 'bare validator', ratio: pairedRatio(visit!, bare!) }));
        if (earlier !== undefined) {
          measurements.push(summarize(section, earlier, { baseline: 'bare validator', ratio: pairedRatio(earlier, bare!) }));
          measurements.push(
            summarize(
              section,
              { ...earlier, name: `${earlier.name} ÷ text decode` },
              { baseline: 'text decode', ratio: pairedRatio(earlier, text!) },
            ),
          );
          measurements.push(
            summarize(
              section,
              { ...ours!, name: `${ours!.name} ÷ BENCH_BEFORE build` },
              { baseline: 'BENCH_BEFORE build', ratio: pairedRatio(ours!, earlier) },
            ),
          );
        }
      }
    }

    if (wanted('peers')) await peersHot(peers);
    if (wanted('rejections')) rejections(lib, generated['get_products 1MB']!.payload);
    if (wanted('hostile')) {
      hostile(fast('get_products'));
      await worstListing();
    }
    if (wanted('typecheck')) await typecheck(tmp, peers);
    if (wanted('webhooks')) measurements.push(...(await webhookBench(QUICK ? { rounds: 7, calls: 100 } : undefined)));
    if (wanted('package')) await packageSizes(tmp);
    if (wanted('encode')) measurements.push(...(await encodeBench(rounds(21))));
    if (wanted('patches')) measurements.push(...(await patchBench(tmp, QUICK ? 3 : 9)));
    if (wanted('firstfail')) {
      const p = payloads.find((x) => x.label === 'get_products 100KB')!;
      const files = { pass: path.join(tmp, 'firstfail-pass.json'), fail: path.join(tmp, 'firstfail-fail.json') };
      writeFileSync(files.pass, JSON.stringify(p.text));
      writeFileSync(files.fail, JSON.stringify(mcpText(invalidGetProducts(p.payload))));
      measurements.push(...(await firstFailureBench(files, QUICK ? 3 : 11)));
    }
    if (wanted('calltask')) measurements.push(...(await callTaskBench(rounds(15))));
    if (wanted('waitfortask')) measurements.push(...(await waitForTaskBench(rounds(21))));
    if (wanted('events')) measurements.push(...(await eventsBench(QUICK ? 3 : 7)));
    if (wanted('weight')) measurements.push(...(await weightBench(path.join(ROOT, 'dist'), tmp)));
    if (wanted('generate')) measurements.push(...(await generateBench(path.join(ROOT, 'dist'), tmp, QUICK ? 1 : 3)));
    if (wanted('generated')) {
      measurements.push(...(await generatedReleaseBench(ROOT, tmp, rounds(41))));
    }

    const durationMs = performance.now() - started;
    const printed = table(measurements);
    process.stdout.write(`${printed}\n`);
    const sizes = payloads.map(
      (p) =>
        `${p.label}: ${p.bytes} B (${Array.isArray(p.payload.products) ? `${p.payload.products.length} products` : `${(p.payload.packages as Json[]).length} packages`})`,
    );
    process.stdout.write(`\npayloads: ${sizes.join('; ')}\n`);
    for (const n of notes) process.stdout.write(`note: ${n}\n`);
    process.stdout.write(
      `clocks: hot loops ${CLOCK === 'cpu' ? 'CPU time of the process (BENCH_CLOCK=wall for wall time)' : 'wall time'}; fresh processes and tsc wall time\n`,
    );
    process.stdout.write(
      `run: ${(durationMs / 1000).toFixed(0)} s, node ${process.version}, ${os.cpus().length} CPUs, load average ${load0[0]!.toFixed(1)} → ${os.loadavg()[0]!.toFixed(1)}${QUICK ? ', --quick' : ''}\n`,
    );
    writeFileSync(
      path.join(ROOT, 'bench', 'results.json'),
      `${JSON.stringify(
        {
          date: new Date().toISOString(),
          node: process.version,
          cpus: os.cpus().length,
          loadAverage: { start: load0, end: os.loadavg() },
          quick: QUICK,
          hotClock: CLOCK,
          durationMs,
          payloads: payloads.map((p) => ({ label: p.label, task: p.task, bytes: p.bytes })),
          notes,
          measurements,
        },
        null,
        2,
      )}\n`,
    );
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// Fresh processes

interface ChildResult {
  importMs: number;
  calls: number[];
  sinceStart: number;
  rssAfterFirstKb: number;
  ok: boolean;
}

async function cold(tmp: string, p: Payload, peers: boolean, validatorFile: (task: string) => string): Promise<void> {
  log('cold: fresh processes');
  const textFile = path.join(tmp, 'text.json');
  const structuredFile = path.join(tmp, 'structured.json');
  const bundleFile = path.join(tmp, 'bundle.json');
  const outputSchemaFile = path.join(tmp, 'output-schema.json');
  writeFileSync(textFile, JSON.stringify(p.text));
  writeFileSync(structuredFile, JSON.stringify(p.structured));
  writeFileSync(bundleFile, JSON.stringify(runtimeBundle(VERSION)));
  writeFileSync(outputSchemaFile, JSON.stringify(outputSchema(VERSION, p.task)));
  const common = { task: p.task, calls: 10 };
  // The same payload with every product broken: the first failing decode, same size.
  const failFile = path.join(tmp, 'text-invalid.json');
  writeFileSync(failFile, JSON.stringify(mcpText(invalidGetProducts(p.payload))));
  const bundle = await nodeBundle(tmp);
  const modes: Array<{ key: string; runs: number; job: object }> = [
    { key: 'ours', runs: QUICK ? 3 : 5, job: { ...common, mode: 'ours', input: textFile, dist: DIST_INDEX } },
    { key: 'ours-fail', runs: QUICK ? 3 : 5, job: { ...common, mode: 'ours-fail', input: failFile, dist: DIST_INDEX } },
    { key: 'ours-bundle', runs: QUICK ? 2 : 4, job: { ...common, mode: 'ours-bundle', input: textFile, bundle } },
    {
      key: 'runtime-ajv',
      runs: QUICK ? 2 : 4,
      job: { ...common, mode: 'runtime-ajv', input: textFile, bundle: bundleFile, schemaId: responseSchemaId(VERSION, p.task) },
    },
    { key: 'floor', runs: QUICK ? 2 : 4, job: { ...common, mode: 'floor', input: textFile, validator: validatorFile(p.task) } },
    { key: 'mcp-sdk', runs: QUICK ? 1 : 2, job: { ...common, mode: 'mcp-sdk', input: structuredFile, outputSchema: outputSchemaFile } },
  ];
  if (peers)
    modes.push({
      key: 'adcp-client',
      runs: QUICK ? 1 : 2,
      job: { ...common, mode: 'adcp-client', input: structuredFile, peers: path.join(PEERS, 'package.json') },
    });
  const results = new Map<string, ChildResult[]>(modes.map((m) => [m.key, []]));
  const child = path.join(ROOT, 'bench', 'child.mjs');
  // Interleaved: one process of each mode in turn, so that a change in machine load hits all modes.
  for (let i = 0; modes.some((m) => i < m.runs); i++) {
    for (const m of modes) {
      if (i >= m.runs) continue;
      const { stdout } = await run(process.execPath, [child, JSON.stringify(m.job)], { cwd: ROOT });
      const r = lastJsonLine<ChildResult>(stdout);
      if (r.ok !== true) throw new Error(`cold ${m.key}: the first call did not accept the payload`);
      results.get(m.key)!.push(r);
    }
  }
  const stat = (section: string, name: string, values: number[], extra: Partial<Measurement> = {}, unit: 'ms' | 'MB' = 'ms') =>
    measure(section, name, values, unit, extra);
  const get = (key: string) => results.get(key) ?? [];
  const first = (key: string) => get(key).map((r) => r.importMs + r.calls[0]!);
  const since = (key: string) => get(key).map((r) => r.sinceStart);
  const rss = (key: string) => get(key).map((r) => r.rssAfterFirstKb / 1024);
  const ten = (key: string) => get(key).map((r) => r.calls.reduce((a, b) => a + b, 0));
  /** A row divided by its baseline row's median, with the goal where the issue sets one. */
  const against = (
    section: string,
    name: string,
    values: number[],
    base: { readonly name: string; readonly values: number[] },
    limit?: number,
    extra: Partial<Measurement> = {},
    unit: 'ms' | 'MB' = 'ms',
  ): Measurement => {
    const r = median(values) / median(base.values);
    return stat(section, name, values, { baseline: base.name, ratio: r, ...(limit === undefined ? {} : goal(limit, r)), ...extra }, unit);
  };
  const label = `get_products ${(p.bytes / 1024).toFixed(0)} KB`;

  const S1 = `cold start: fresh node, import + first decode of ${label} (÷ run-time Ajv)`;
  const ajvFirst = { name: 'run-time Ajv', values: first('runtime-ajv') };
  const oursFirst = { name: 'adcp-decode: import + first decode', values: first('ours') };
  measurements.push(stat(S1, 'run-time Ajv: import, compile, first validation', ajvFirst.values));
  measurements.push(against(S1, oursFirst.name, oursFirst.values, ajvFirst, 0.063));
  measurements.push(
    against(S1, 'adcp-decode Node bundle (esbuild, split): import + preload + first decode', first('ours-bundle'), ajvFirst, 0.06),
  );
  measurements.push(
    against(S1, 'adcp-decode: import + first failing decode (every product broken)', first('ours-fail'), oursFirst, 1.3, {
      note: "the fast verdict, then the task's error-listing module loads and lists",
    }),
  );
  const ajvSince = { name: 'run-time Ajv, from process start', values: since('runtime-ajv') };
  measurements.push(stat(S1, ajvSince.name, ajvSince.values));
  measurements.push(against(S1, 'adcp-decode, from process start', since('ours'), ajvSince));
  measurements.push(against(S1, 'MCP SDK: compile outputSchema (allErrors), first check', first('mcp-sdk'), ajvFirst));
  if (peers) measurements.push(against(S1, '@adcp/client: import + first validation', first('adcp-client'), ajvFirst));

  const S2 = 'memory: peak RSS of the cold-start process after the first decode (÷ run-time Ajv)';
  const ajvRss = { name: 'run-time Ajv', values: rss('runtime-ajv') };
  measurements.push(stat(S2, ajvRss.name, ajvRss.values, {}, 'MB'));
  measurements.push(against(S2, 'adcp-decode', rss('ours'), ajvRss, undefined, {}, 'MB'));
  measurements.push(against(S2, 'MCP SDK outputSchema check', rss('mcp-sdk'), ajvRss, undefined, {}, 'MB'));
  if (peers) measurements.push(against(S2, '@adcp/client', rss('adcp-client'), ajvRss, undefined, {}, 'MB'));

  const S3 = `first calls: total of the first 10 decodes of ${label} after import, fresh process (÷ floor)`;
  const floorTen = { name: 'floor', values: ten('floor') };
  measurements.push(stat(S3, 'floor: load validator, 10 × (JSON.parse + validate)', floorTen.values));
  measurements.push(against(S3, 'adcp-decode: 10 decodes', ten('ours'), floorTen));
  measurements.push(
    stat(
      S3,
      'adcp-decode: first decode alone',
      get('ours').map((r) => r.calls[0]!),
      { note: 'includes loading the validator module' },
    ),
  );
  measurements.push(against(S3, 'run-time Ajv: compile + 10 validations', ten('runtime-ajv'), floorTen));
}

/** What a fresh process spends on the `uri` format: ajv-formats' regex (compiled on first use) against isUri's scan (bench/uri-check.mjs). */
async function firstUriChecks(): Promise<void> {
  log('cold: first uri checks');
  const child = path.join(ROOT, 'bench', 'uri-check.mjs');
  type Clocks = { wall: number; cpu: number };
  type UriResult = { importMs: Clocks; firstMs: Clocks; hundredMs: Clocks; thousandMs: Clocks; ok: boolean };
  const impls = ['ajv-formats', 'isUri'] as const;
  const results = new Map<string, UriResult[]>(impls.map((impl) => [impl, []]));
  // Interleaved, as the cold-start processes are.
  for (let i = 0; i < (QUICK ? 3 : 9); i++) {
    for (const impl of impls) {
      const job = { impl, dist: path.join(ROOT, 'dist', 'validate', 'runtime', 'uri-format.js') };
      const { stdout } = await run(process.execPath, [child, JSON.stringify(job)], { cwd: ROOT });
      const r = JSON.parse(stdout.trim().split('\n').at(-1)!) as UriResult;
      if (r.ok !== true) throw new Error(`first uri checks, ${impl}: a URI was rejected`);
      results.get(impl)!.push(r);
    }
  }
  const S = "first `uri` format checks, fresh node: ajv-formats' full uri against isUri (src/validate/runtime/uri-format.js), wall time";
  const rows: Array<[string, (r: UriResult) => number]> = [
    ['first call', (r) => r.firstMs.wall],
    ['the next 100 calls (a 100 KB get_products makes 108)', (r) => r.hundredMs.wall],
    ['the next 1,000 calls', (r) => r.thousandMs.wall],
  ];
  for (const [what, pickMs] of rows) {
    const values = (impl: string) => results.get(impl)!.map(pickMs);
    const stat = (impl: string, extra: Partial<Measurement> = {}): Measurement => ({
      section: S,
      name: `${impl}: ${what}`,
      unit: 'ms',
      median: median(values(impl)),
      min: Math.min(...values(impl)),
      max: Math.max(...values(impl)),
      runs: values(impl).length,
      ...extra,
    });
    measurements.push(stat('ajv-formats'));
    measurements.push(stat('isUri', { baseline: 'ajv-formats', ratio: median(values('isUri')) / median(values('ajv-formats')) }));
  }
}

/** A Node bundle of the root entry (the bundler's `module` condition picks the loader without require()), as a Lambda ships it. */
async function nodeBundle(tmp: string): Promise<string> {
  const { build } = await import('esbuild');
  const entry = path.join(tmp, 'lambda.mjs');
  writeFileSync(entry, `export { decode, preload } from ${JSON.stringify(DIST_INDEX)};\n`);
  const outdir = path.join(tmp, 'bundle');
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    splitting: true,
    outdir,
    outExtension: { '.js': '.mjs' },
    // As a user's bundler sees dist/: not through tsconfig.json's `paths`, which point #validator-loader at src/;
    // and silent, as from node_modules, on the chunks' ordering imports it drops (the package has no side effects).
    tsconfigRaw: '{}',
    logOverride: { 'ignored-bare-import': 'silent' },
    logLevel: 'silent',
  });
  if (result.warnings.length > 0) throw new Error(`bench: the Node bundle warns: ${result.warnings.map((w) => w.text).join('; ')}`);
  return path.join(outdir, 'lambda.mjs');
}

/** Peers whose tarballs are measured beside ours (versions as in bench/peers and docs/benchmarks.md). */
const SIZE_PEERS = ['@adcp/client@4.8.0', '@adcp/sdk@6.11.0'];

async function packageSizes(tmp: string): Promise<void> {
  log('package: npm pack --dry-run');
  const S = 'package: the tarball a user installs (npm pack --dry-run; ÷ @adcp/client)';
  const sizes: Array<{ name: string; size: number; unpackedSize: number; entryCount: number }> = [];
  const pack = async (name: string, args: string[], cwd: string) => {
    const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts', ...args], { cwd });
    const [info] = JSON.parse(stdout) as Array<{ size: number; unpackedSize: number; entryCount: number }>;
    sizes.push({ name, ...info! });
  };
  await pack('adcp-decode', [], ROOT);
  for (const peer of SIZE_PEERS) {
    try {
      await pack(peer, [peer], tmp);
    } catch (error) {
      notes.push(`package: npm pack ${peer} failed (offline?), so its size rows are missing: ${String(error).slice(0, 200)}`);
    }
  }
  const base = sizes.find((s) => s.name.startsWith('@adcp/client'));
  const row = (name: string, unit: 'MB' | 'files', value: number, baseValue: number | undefined, max?: number): Measurement =>
    measure(S, name, [value], unit, {
      ...(baseValue === undefined ? {} : { baseline: '@adcp/client', ratio: value / baseValue }),
      ...(max === undefined ? {} : goal(max, value)),
    });
  for (const s of sizes) {
    const isBase = s === base;
    // Issue 20's goals, with both releases in the package.
    const ours = s.name === 'adcp-decode';
    measurements.push(row(`${s.name}: packed`, 'MB', s.size / 1e6, isBase ? undefined : base && base.size / 1e6, ours ? 1.5 : undefined));
    measurements.push(
      row(`${s.name}: unpacked`, 'MB', s.unpackedSize / 1e6, isBase ? undefined : base && base.unpackedSize / 1e6, ours ? 8 : undefined),
    );
    measurements.push(row(`${s.name}: files`, 'files', s.entryCount, isBase ? undefined : base?.entryCount));
  }
}

// ---------------------------------------------------------------------------------------------
// Peers, hot

async function peersHot(peers: boolean): Promise<void> {
  const S = 'hot, peers on the same structuredContent, each in its own process with adcp-decode (÷ adcp-decode)';
  const names: Record<string, string> = {
    'mcp-sdk': 'MCP SDK outputSchema check (allErrors)',
    'runtime-ajv': 'run-time compiled Ajv (same options)',
    'adcp-client': '@adcp/client responseValidator (Zod)',
  };
  // Issue 40: where the peer is to be the slower of the two on the same object.
  const peerGoals: Record<string, readonly string[]> = {
    'mcp-sdk': ['get_products 2KB', 'get_products 100KB', 'get_products 1MB'],
    'runtime-ajv': ['get_products 2KB', 'get_products 1MB'],
  };
  for (const peer of ['mcp-sdk', 'runtime-ajv', ...(peers ? ['adcp-client'] : [])]) {
    log(`hot: peer ${peer}`);
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT, 'bench', 'peer-hot.ts'), peer, ...(QUICK ? ['--quick'] : [])],
      { cwd: ROOT },
    );
    const result = lastJsonLine<{
      setupMs: number;
      rows: Array<{ label: string; ours: HotResult; theirs: HotResult }>;
    }>(stdout);
    for (const { label, ours, theirs } of result.rows) {
      const ratio = pairedRatio(theirs, ours);
      measurements.push(summarize(S, { ...ours, name: `adcp-decode beside ${peer}, ${label}` }));
      measurements.push(
        summarize(
          S,
          { ...theirs, name: `${names[peer]}, ${label}` },
          { baseline: 'adcp-decode', ratio, ...(peerGoals[peer]?.includes(label) === true ? goalAtLeast(1.0, ratio) : {}) },
        ),
      );
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Rejections

function rejections(lib: { safeDecode: SafeDecodeFn }, payload1MB: { [key: string]: Json }): void {
  log('hot: rejections');
  const S = 'rejections (÷ JSON.parse of the same text)';
  const cases = rejectionCases(payload1MB, MAX_BYTES);
  for (const c of cases) {
    if (c.code === 'TOO_LARGE' && utf8Bytes(c.text) !== MAX_BYTES + 1) throw new Error(`${c.label}: ${utf8Bytes(c.text)} bytes`);
    const input = { content: [{ type: 'text', text: c.text }] };
    const r = lib.safeDecode('get_products', input);
    if (r.success || r.error?.code !== c.code)
      throw new Error(`${c.label}: expected ${c.code}, got ${r.success ? 'success' : r.error?.code}`);
    const [parse, ours] = hot(
      [
        { name: `JSON.parse, ${c.label}`, fn: () => JSON.parse(c.text) },
        { name: `decode rejects (${c.code}), ${c.label}`, fn: () => lib.safeDecode('get_products', input) },
      ],
      { rounds: rounds(15), time: 10, iterations: 2 },
    );
    measurements.push(summarize(S, parse!));
    measurements.push(summarize(S, ours!, { baseline: 'JSON.parse', ratio: pairedRatio(ours!, parse!) }));
  }
}

// ---------------------------------------------------------------------------------------------
// Hostile payloads

function hostile(validate: RuntimeValidator): void {
  log('hot: hostile payloads');
  const S = 'hostile payloads, 4 MiB (÷ plain 4 MiB get_products)';
  const size = MAX_BYTES - 4096;
  const plain = getProductsResponse(size, 7);
  const quadratic = quadraticKeysGetProducts(size);
  for (const [label, payload] of [
    ['plain', plain],
    ['quadratic keys', quadratic],
  ] as const) {
    const bytes = utf8Bytes(JSON.stringify(payload));
    if (bytes > MAX_BYTES || bytes < size - 64 * 1024) throw new Error(`hostile: the ${label} payload has ${bytes} bytes`);
    if (!validate(payload)) throw new Error(`hostile: the ${label} payload fails the get_products validator`);
  }
  const [base, keys] = hot(
    [
      { name: `validator, plain get_products (${(utf8Bytes(JSON.stringify(plain)) / 1048576).toFixed(2)} MiB)`, fn: () => validate(plain) },
      {
        name: "validator, valid get_products, a 2 MiB `~/` key over 260,000 items (quadratic in Ajv's own code)",
        fn: () => validate(quadratic),
      },
    ],
    { rounds: rounds(9), time: 10, iterations: 2 },
  );
  measurements.push(summarize(S, base!));
  const ratio = pairedRatio(keys!, base!);
  measurements.push(summarize(S, keys!, { baseline: 'plain', ratio, ...goal(2, ratio) }));
}

/** formatIssues and JSON.stringify on the worst issue listing the bounds allow, in fresh processes (peak RSS). */
async function worstListing(): Promise<void> {
  log('fresh processes: the worst issue listing');
  const once = async (mode: 'build' | 'format') => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench', 'issue-listing.ts'), mode], { cwd: ROOT });
    return lastJsonLine<{
      issues: number;
      buildMs: number;
      formatMs: number;
      stringifyMs: number;
      chars: number;
      maxRssKb: number;
    }>(stdout);
  };
  const build: Awaited<ReturnType<typeof once>>[] = [];
  const format: Awaited<ReturnType<typeof once>>[] = [];
  for (let i = 0; i < (QUICK ? 2 : 5); i++) {
    build.push(await once('build'));
    format.push(await once('format'));
  }
  const S = `the worst issue listing the bounds allow (${format[0]!.issues} issues at the character budget, a first issue with an 8 Mi-character pointer), fresh process`;
  const stat = (name: string, values: number[], unit: 'ms' | 'MB', extra: Partial<Measurement> = {}) =>
    measure(S, name, values, unit, extra);
  measurements.push(
    stat(
      'formatIssues',
      format.map((r) => r.formatMs),
      'ms',
      { note: `${format[0]!.chars} characters printed and serialized` },
    ),
  );
  measurements.push(
    stat(
      'JSON.stringify(issues)',
      format.map((r) => r.stringifyMs),
      'ms',
    ),
  );
  const rssBuild = build.map((r) => r.maxRssKb / 1024);
  const rssFormat = format.map((r) => r.maxRssKb / 1024);
  measurements.push(stat('peak RSS: build the listing only', rssBuild, 'MB'));
  measurements.push(
    stat('peak RSS: build, formatIssues, JSON.stringify', rssFormat, 'MB', {
      baseline: 'build only',
      ratio: median(rssFormat) / median(rssBuild),
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// Type-check cost

async function typecheck(tmp: string, peers: boolean): Promise<void> {
  log('typecheck: tsc --noEmit');
  const ours = path.join(tmp, 'tc-adcp-decode');
  const theirs = path.join(tmp, 'tc-adcp-client');
  const empty = path.join(tmp, 'tc-floor');
  writeConsumer(ours, 'adcp-decode', { name: 'adcp-decode', target: ROOT });
  writeConsumer(empty, 'floor', { name: 'adcp-decode', target: ROOT });
  if (peers) writeConsumer(theirs, '@adcp/client', { nodeModules: path.join(PEERS, 'node_modules') });
  // Five rounds, arms alternating: one tsc is 1-2 s and moves by a tenth with the machine's load.
  const runs = QUICK ? 1 : 5;
  const a: Array<{ ms: number; maxRssKb: number }> = [];
  const b: Array<{ ms: number; maxRssKb: number }> = [];
  const f: Array<{ ms: number; maxRssKb: number }> = [];
  for (let i = 0; i < runs; i++) {
    if (peers) b.push(await typecheckOnce(ROOT, theirs));
    a.push(await typecheckOnce(ROOT, ours));
    f.push(await typecheckOnce(ROOT, empty));
  }
  const S = 'type-check: tsc --noEmit of a consumer typing its requests and reading .products (÷ @adcp/client)';
  const m = (name: string, values: number[], unit: 'ms' | 'MB', extra: Partial<Measurement> = {}) => measure(S, name, values, unit, extra);
  const ms = (runs: Array<{ ms: number }>): number[] => runs.map((x) => x.ms);
  const mb = (runs: Array<{ maxRssKb: number }>): number[] => runs.map((x) => x.maxRssKb / 1024);
  const [msA, rssA, msF, rssF] = [ms(a), mb(a), ms(f), mb(f)];
  measurements.push(m('empty consumer (the floor): time', msF, 'ms'));
  measurements.push(m('empty consumer (the floor): peak RSS', rssF, 'MB'));
  if (peers) {
    const [msB, rssB] = [ms(b), mb(b)];
    // The whole processes, for reference: the floor alone is 0.44-0.51 of @adcp/client's, so a
    // ratio of 0.5 here would need a package that costs tsc next to nothing.
    measurements.push(m('@adcp/client consumer: time', msB, 'ms'));
    measurements.push(m('adcp-decode consumer: time', msA, 'ms', { baseline: '@adcp/client', ratio: median(msA) / median(msB) }));
    measurements.push(m('@adcp/client consumer: peak RSS', rssB, 'MB'));
    measurements.push(m('adcp-decode consumer: peak RSS', rssA, 'MB', { baseline: '@adcp/client', ratio: median(rssA) / median(rssB) }));
    // The goals (issue 30 item 5): what each package adds to the floor (tsc and its lib files,
    // which no package can make cheaper) is what a consumer's tsc reads of it.
    const aboveFloor = (values: number[], floor: number[]): number[] => values.map((v) => v - median(floor));
    const [msAboveA, msAboveB, rssAboveA, rssAboveB] = [
      aboveFloor(msA, msF),
      aboveFloor(msB, msF),
      aboveFloor(rssA, rssF),
      aboveFloor(rssB, rssF),
    ];
    const time = median(msAboveA) / median(msAboveB);
    const rss = median(rssAboveA) / median(rssAboveB);
    measurements.push(m('@adcp/client above the floor: time', msAboveB, 'ms'));
    measurements.push(
      m('adcp-decode above the floor: time', msAboveA, 'ms', { baseline: '@adcp/client above it', ratio: time, ...goal(0.5, time) }),
    );
    measurements.push(m('@adcp/client above the floor: peak RSS', rssAboveB, 'MB'));
    measurements.push(
      m('adcp-decode above the floor: peak RSS', rssAboveA, 'MB', { baseline: '@adcp/client above it', ratio: rss, ...goal(0.5, rss) }),
    );
  }
  // The absolute goals (issue 12): under 2 s and 300 MB on this machine.
  measurements.push(
    m('adcp-decode consumer: time (÷ 2 s)', msA, 'ms', { baseline: '2,000 ms', ratio: median(msA) / 2000, ...goal(1, median(msA) / 2000) }),
  );
  measurements.push(
    m('adcp-decode consumer: peak RSS (÷ 300 MB)', rssA, 'MB', {
      baseline: '300 MB',
      ratio: median(rssA) / 300,
      ...goal(1, median(rssA) / 300),
    }),
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
