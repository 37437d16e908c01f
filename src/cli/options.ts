/**
 * The command line's arguments: the options parsed, each value read and checked, the task name
 * checked against the bundled tasks. Anything wrong is a {@link UsageError} that says what was expected.
 */
import { parseArgs } from 'node:util';
import { DEFAULT_BOUNDS } from '../bounds/bounds.js';
import type { Transport } from '../decode/decode.js';
import { shownText } from '../errors/format.js';
import { knownReleases } from '../schema/releases.js';
import { knownVersions, resolveVersion, tablesFor, type Version } from '../schema/versions.js';
import { UsageError } from './usage.js';

/** The options as parsed: a string, a flag, or (`--header`) the strings given. */
export type Values = Record<string, string | boolean | string[] | undefined>;

/**
 * Parses the arguments: every option of every command (each command refuses those it does not take).
 *
 * @param argv - The arguments after `node main.js`.
 * @returns The positionals and the options by name.
 * @throws {UsageError} An unknown option, a flag given a value, an option without its value.
 * @example
 * const { positionals, values } = parse(['probe', url, '--json']);
 */
export function parse(argv: readonly string[]): { positionals: string[]; values: Values } {
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        json: { type: 'boolean' },
        'adcp-version': { type: 'string' },
        'max-bytes': { type: 'string' },
        transport: { type: 'string' },
        header: { type: 'string', multiple: true },
        'timeout-ms': { type: 'string' },
        release: { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean' },
      },
    });
    return { positionals, values };
  } catch (error) {
    const message = error instanceof Error ? error.message : '';
    const option = /'(-[^' ]*)/.exec(message)?.[1] ?? 'option';
    const code = (error as { code?: unknown }).code;
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
      if (message.includes('does not take an argument')) throw new UsageError(`${shownText(option, 40)} takes no value`);
      throw new UsageError(`${shownText(option, 40)} expects a value`);
    }
    throw new UsageError(
      `unknown option ${shownText(option, 40)}; expected --json, --adcp-version, --release, --max-bytes, --transport, --header, --timeout-ms or --help`,
    );
  }
}

/** `--adcp-version`: `auto`, a known version (bundled, or a `--release` module's) or its pin. */
export function versionOption(raw: string | undefined): 'auto' | Version {
  if (raw === undefined || raw === 'auto') return 'auto';
  try {
    return resolveVersion(raw);
  } catch {
    const known = knownVersions();
    const pins = [...new Set(knownReleases().map((r) => r.release))];
    throw new UsageError(
      `--adcp-version "${shownText(raw, 32)}" is not a release this command has; expected auto, ${[...known, ...pins].join(', ')} (another: generate its module and give it with --release <dir>)`,
    );
  }
}

/** `--max-bytes`: a whole number of bytes (default: decode's). */
export function maxBytesOption(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_BOUNDS.maxBytes;
  const value = /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value)) {
    throw new UsageError(`--max-bytes expects a whole number of bytes, e.g. ${DEFAULT_BOUNDS.maxBytes}; got "${shownText(raw, 32)}"`);
  }
  return value;
}

/** `--transport` of a saved answer: `auto`, `mcp`, `a2a` or `payload`. */
export function transportOption(raw: string | undefined): Transport {
  if (raw === undefined) return 'auto';
  if (raw === 'auto' || raw === 'mcp' || raw === 'a2a' || raw === 'payload') return raw;
  throw new UsageError(`--transport expects auto, mcp, a2a or payload; got "${shownText(raw, 32)}"`);
}

function taskNames(version: 'auto' | Version): Set<string> {
  return new Set((version === 'auto' ? knownVersions() : [version]).flatMap((v) => tablesFor(v).tasks));
}

function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row.push(Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1)));
    }
    prev = row;
  }
  return prev[b.length] ?? 0;
}

/** A task name bundled in the version (any bundled one for `auto`), else a usage error naming the closest. */
export function checkTask(task: string, version: 'auto' | Version): void {
  const known = taskNames(version);
  if (known.has(task)) return;
  const normalized = task.toLowerCase().replace(/-/g, '_');
  let best: string | undefined;
  let bestDistance = 3;
  for (const name of known) {
    const d = name === normalized ? 0 : distance(normalized, name);
    if (d < bestDistance) [best, bestDistance] = [name, d];
  }
  const where = version === 'auto' ? `an AdCP ${knownVersions().join(' or ')} task` : `an AdCP ${version} task`;
  const hint = best === undefined ? 'run adcp-decode tasks for the list' : `did you mean ${best}?`;
  throw new UsageError(`unknown task "${shownText(task, 64)}"; expected ${where} (${hint})`);
}

/** `--transport` of a live seller: `auto` (detected), `mcp` or `a2a`. */
export function agentTransportOption(raw: string | undefined): 'auto' | 'mcp' | 'a2a' {
  if (raw === undefined) return 'auto';
  if (raw === 'auto' || raw === 'mcp' || raw === 'a2a') return raw;
  throw new UsageError(`--transport of a live seller expects auto, mcp or a2a; got "${shownText(raw, 32)}"`);
}

/** An HTTP field name (RFC 9110 token). */
const FIELD_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * `--header "Name: value"`, repeatable: what every request to the seller carries (its credentials).
 * A value is never printed, not even in an error.
 */
export function headerOptions(raw: readonly string[] | undefined): Array<readonly [string, string]> {
  return (raw ?? []).map((given) => {
    const colon = given.indexOf(':');
    const name = colon < 0 ? '' : given.slice(0, colon).trim();
    const value = colon < 0 ? '' : given.slice(colon + 1).trim();
    if (!FIELD_NAME.test(name))
      throw new UsageError(`--header expects "Name: value", e.g. "Authorization: Bearer <token>"; got a header without a valid name`);
    try {
      new Headers([[name, value]]);
    } catch {
      throw new UsageError(`--header "${shownText(name, 64)}" has a value HTTP cannot carry (a line break or a NUL)`);
    }
    return [name, value] as const;
  });
}

/** `--timeout-ms`: the deadline of each request to the seller, in whole milliseconds (default 60000, callTask's). */
export function timeoutOption(raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const value = /^\d{1,10}$/.test(raw) ? Number(raw) : NaN;
  if (!(value >= 1 && value <= 2_147_483_647))
    throw new UsageError(`--timeout-ms expects a whole number of milliseconds from 1, e.g. ${fallback}; got "${shownText(raw, 32)}"`);
  return value;
}

/** The seller agent's URL: http or https. */
export function agentUrl(raw: string | undefined, command: string): URL {
  if (raw === undefined) throw new UsageError(`${command} expects the seller agent's URL, e.g. https://seller.example/mcp`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`${command} expects the seller agent's URL (http or https); got "${shownText(raw, 200)}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`${command} expects an http or https URL; got a ${shownText(url.protocol, 32)} one`);
  return url;
}
