/**
 * One peer against adcp-decode, hot, in a process of their own (spawned by bench/run.ts):
 *
 *   node --import tsx bench/peer-hot.ts <peer> [--quick]
 *
 * Peers: `mcp-sdk` (the MCP SDK client's check of structuredContent against a tool's outputSchema:
 * AjvJsonSchemaValidator, allErrors, compiled as at listTools time), `runtime-ajv` (Ajv compiling
 * the same schemas with the same options at run time), `adcp-client` (@adcp/client's public
 * responseValidator, Zod). Each process holds only adcp-decode and one peer, so that one peer's
 * compiled code and heap do not slow the next one down (a process's heap size shows in every
 * validator's garbage-collection time). Prints one JSON line: per payload, both HotResults.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { V3_1 } from '../test/fixtures/versions.js';
import { type Case, hot } from './harness.js';
import { benchPayloads, mcpStructured } from './payloads.js';
import { compileFromBundle } from './runtime-ajv.mjs';
import { outputSchema, responseSchemaId, runtimeBundle } from './schemas.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const VERSION = V3_1;
const [peer = 'mcp-sdk'] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const quick = process.argv.includes('--quick');

const { decode } = (await import(pathToFileURL(path.join(ROOT, 'dist', 'index.js')).href)) as {
  decode: (task: string, input: unknown) => unknown;
};
const payloads = Object.entries(benchPayloads());
const tasks = [...new Set(payloads.map(([, p]) => p.task))];

/** The peer's check for a task, from a structuredContent envelope; true when it accepts. */
type Check = (envelope: { structuredContent: object }) => boolean;
const checks = new Map<string, Check>();
const t0 = performance.now();
switch (peer) {
  case 'mcp-sdk': {
    const { AjvJsonSchemaValidator } = await import('@modelcontextprotocol/sdk/validation/ajv');
    // One validator for all tools, as the Client keeps one; compiled as listTools does.
    const sdk = new AjvJsonSchemaValidator();
    for (const task of tasks) {
      const validate = sdk.getValidator(outputSchema(VERSION, task) as never) as (input: unknown) => { valid: boolean };
      checks.set(task, (e) => validate(e.structuredContent).valid);
    }
    break;
  }
  case 'runtime-ajv': {
    const bundle = runtimeBundle(VERSION);
    for (const task of tasks) {
      const validate = compileFromBundle(bundle, responseSchemaId(VERSION, task));
      checks.set(task, (e) => validate(e.structuredContent));
    }
    break;
  }
  case 'adcp-client': {
    const requirePeers = createRequire(path.join(ROOT, 'bench', 'peers', 'package.json'));
    const { responseValidator } = requirePeers('@adcp/client') as {
      responseValidator: { validate: (r: unknown, tool: string, o: object) => { valid: boolean } };
    };
    for (const task of tasks) checks.set(task, (e) => responseValidator.validate(e, task, { validateSchema: true, strict: false }).valid);
    break;
  }
  default:
    throw new Error(`unknown peer ${peer}`);
}
const setupMs = performance.now() - t0;

const rows = [];
for (const [label, { task, payload }] of payloads) {
  const envelope = mcpStructured(payload);
  const check = checks.get(task)!;
  // Both sides judge what they measure: the payload is accepted before any timing.
  if (!check(envelope)) throw new Error(`${peer} rejects ${label}`);
  decode(task, envelope);
  const big = JSON.stringify(payload).length > 500_000;
  const cases: Case[] = [
    { name: 'adcp-decode', fn: () => decode(task, envelope) },
    { name: peer, fn: () => check(envelope) },
  ];
  const [ours, theirs] = hot(cases, { rounds: quick ? 7 : 15, time: 10, iterations: big ? 2 : 3 });
  rows.push({ label, ours, theirs });
}
process.stdout.write(`${JSON.stringify({ peer, setupMs, rows })}\n`);
