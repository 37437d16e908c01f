/**
 * One fresh process of the cold-start and first-calls measurements (spawned by bench/run.ts with
 * bare `node`, so no TypeScript loader runs in the measured time).
 *
 *   node bench/child.mjs '<json job>'
 *
 * The job names a mode and an input file (an MCP CallToolResult as JSON, read before the clock
 * starts). The clock starts before the first import of the code under test; each of `calls`
 * decodes (or validations) is timed on its own. Printed on stdout, as one JSON line:
 *   importMs   import of the code under test (and, for run-time compilation, nothing more)
 *   calls      ms of each call; calls[0] includes any lazy loading or compiling
 *   sinceStart ms from process start (performance.timeOrigin) to the end of the first call
 *   rssAfterFirstKb  peak RSS (process.resourceUsage().maxRSS) right after the first call
 *   ok         the first call's verdict, checked by the parent
 * A job's `loaded` (module paths) are required after the import, untimed, before the first call.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const job = JSON.parse(process.argv[2]);
const envelope = JSON.parse(readFileSync(job.input, 'utf8'));
const calls = [];
let ok;
let rssAfterFirstKb = 0;
let sinceStart = 0;

function timed(fn) {
  const t = performance.now();
  const verdict = fn();
  calls.push(performance.now() - t);
  if (calls.length === 1) {
    ok = verdict;
    sinceStart = performance.now();
    rssAfterFirstKb = process.resourceUsage().maxRSS;
  }
}

/** A successful decode of the job's input: its verdict is whether the main list came back. */
const decodes = (decode) => () => {
  const data = decode(job.task, envelope);
  return Array.isArray(data.products ?? data.packages);
};

/** Per mode: load the code under test (timed as importMs) and return the call to time. */
const modes = {
  // The package as a consumer gets it: dist/index.js.
  async ours() {
    const { decode } = await import(pathToFileURL(job.dist).href);
    return decodes(decode);
  },
  // The first failing decode: the fast validator rejects, then the task's listing module loads.
  async 'ours-fail'() {
    const { safeDecode } = await import(pathToFileURL(job.dist).href);
    return () => {
      const result = safeDecode(job.task, envelope);
      return !result.success && result.error.code === 'SCHEMA_MISMATCH';
    };
  },
  // A decode pinned to a release (job.version): its verdict is success, judged by the patch job.patch names (null: the bundled one).
  async 'ours-version'() {
    const { safeDecode } = await import(pathToFileURL(job.dist).href);
    return () => {
      const result = safeDecode(job.task, envelope, { version: job.version });
      return result.success && (result.patch ?? null) === job.patch;
    };
  },
  // A Node bundle (esbuild, ESM, split per task) as a Lambda ships it: import, preload(), decode.
  async 'ours-bundle'() {
    const { decode, preload } = await import(pathToFileURL(job.bundle).href);
    await preload(job.task);
    return decodes(decode);
  },
  // JSON.parse of the text and a bare call of the same precompiled validator, loaded the same way.
  // The module is required on the first call, as decode() loads it on its first call.
  async floor() {
    const require = createRequire(import.meta.url);
    let validate;
    return () => {
      validate ??= require(job.validator).response;
      return validate(JSON.parse(envelope.content[0].text));
    };
  },
  // Ajv compiling the same schemas on first use (as the official SDKs do), then validating.
  async 'runtime-ajv'() {
    const { compileFromBundle } = await import('./runtime-ajv.mjs');
    let validate;
    return () => {
      validate ??= compileFromBundle(JSON.parse(readFileSync(job.bundle, 'utf8')), job.schemaId);
      return validate(JSON.parse(envelope.content[0].text));
    };
  },
  // The MCP SDK client's own check: the tool's outputSchema compiled at listTools time
  // (AjvJsonSchemaValidator, allErrors), then structuredContent validated on callTool.
  async 'mcp-sdk'() {
    const { AjvJsonSchemaValidator } = await import('@modelcontextprotocol/sdk/validation/ajv');
    let validate;
    return () => {
      validate ??= new AjvJsonSchemaValidator().getValidator(JSON.parse(readFileSync(job.outputSchema, 'utf8')));
      return validate(envelope.structuredContent).valid;
    };
  },
  // @adcp/client's public response validator (Zod schemas), as its TaskExecutor calls it.
  async 'adcp-client'() {
    const require = createRequire(job.peers);
    const { responseValidator } = require('@adcp/client');
    return () => responseValidator.validate(envelope, job.task, { validateSchema: true, strict: false }).valid;
  },
};

if (!Object.hasOwn(modes, job.mode)) throw new Error(`unknown mode ${job.mode}`);
const t0 = performance.now();
const call = await modes[job.mode]();
const importMs = performance.now() - t0;
// Modules loaded after the import and before the first call, outside both clocks (bench/first-failure.ts prices a failure's parts so).
const loadedBefore = createRequire(import.meta.url);
for (const file of job.loaded ?? []) loadedBefore(file);
for (let i = 0; i < job.calls; i++) timed(call);
process.stdout.write(`${JSON.stringify({ importMs, calls, sinceStart, rssAfterFirstKb, ok })}\n`);
