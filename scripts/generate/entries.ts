/**
 * The entry modules of a pinned version: `pinned.ts` (`adcp-decode/<major>.<minor>`: decode,
 * safeDecode, encode, safeEncode, createDecoder and preload bound to the version, newIdempotencyKey,
 * and every named type of it) and
 * `node.ts` (the same, with validators loaded on first use).
 */
import type { Manifest } from './load.js';
import { banner, layoutImport, versionIdent } from './output.js';

/** Names the pinned entry module declares itself; no schema type may take them. */
const PINNED_OWN_NAMES = [
  'decode',
  'safeDecode',
  'createDecoder',
  'isFinal',
  'Final',
  'Pinned',
  'PinnedDecoder',
  'PinnedOptions',
  'PinnedResult',
  'PinnedTask',
  'TaskName',
  'Response',
  'Responses',
  'DecodeOptions',
  'SafeDecodeResult',
  'AsyncStatus',
  'AsyncVariant',
  'SyncVariant',
  'EnvelopeTaskStatus',
  'encode',
  'safeEncode',
  'newIdempotencyKey',
  'Request',
  'Requests',
  'EncodedRequest',
  'EncodeOptions',
  'SafeEncodeResult',
  'PinnedEncoded',
  'PinnedEncodeOptions',
  'PinnedEncodeResult',
  'PinnedEncoder',
  'Frozen',
];

/**
 * The name each type a version's modules export goes by in its pinned entry: the name
 * json-schema-to-typescript gave it, except where two modules declare the same name; then the
 * schema file's own type keeps it and the others are prefixed with their file's type name
 * (`CreateMediaBuyResponse` declares an arm `CreateMediaBuySubmitted`, as does the async schema
 * of that name: the arm is `CreateMediaBuyResponseCreateMediaBuySubmitted`).
 *
 * @param types Type module path → text.
 * @param mainOf Type module path → the name of its schema's own type.
 * @returns Type module path → its `[declared, exported]` names.
 * @throws Error when a module lacks its schema's type, or two modules would export one name.
 * @example
 * pinnedNames(types, mainOf).get('types/core/product.ts');
 */
export function pinnedNames(
  types: ReadonlyMap<string, string>,
  mainOf: ReadonlyMap<string, string>,
): Map<string, Array<readonly [string, string]>> {
  const declared = new Map<string, string[]>();
  for (const [rel, text] of types)
    declared.set(
      rel,
      [...text.matchAll(/^export (?:type|interface) (\w+)/gm)].map((m) => m[1]!),
    );
  const count = new Map<string, number>();
  for (const names of declared.values()) for (const n of names) count.set(n, (count.get(n) ?? 0) + 1);
  const taken = new Map<string, string>();
  const out = new Map<string, Array<readonly [string, string]>>();
  for (const [rel, names] of [...declared].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const own = mainOf.get(rel);
    if (own === undefined || !names.includes(own)) throw new Error(`pinned entry: ${rel} does not export its schema's type`);
    const list: Array<readonly [string, string]> = [];
    for (const n of names) {
      const exported = count.get(n)! > 1 && n !== own ? `${own}${n}` : n;
      const clash = taken.get(exported) ?? (PINNED_OWN_NAMES.includes(exported) ? 'the pinned entry' : undefined);
      if (clash !== undefined) throw new Error(`pinned entry: ${rel} and ${clash} both export ${exported}`);
      taken.set(exported, rel);
      list.push([n, exported]);
    }
    out.set(rel, list);
  }
  return out;
}

/**
 * The pinned entry (`adcp-decode/<major>.<minor>`): decode, safeDecode and createDecoder bound to
 * this version by src/decode/pinned.ts, isFinal, and every named type of the version.
 *
 * @param version The AdCP version.
 * @param manifest Its tasks.
 * @param types The type modules (path → text).
 * @param mainOf Type module path → the name of its schema's own type.
 * @returns The text of `pinned.ts`.
 * @throws Error when two modules would export one name (see {@link pinnedNames}).
 * @example
 * pinnedModule('3.1.19', manifest, types, mainOf);
 */
export function pinnedModule(
  version: string,
  manifest: Manifest,
  types: ReadonlyMap<string, string>,
  mainOf: ReadonlyMap<string, string>,
): string {
  const release = version.split('.').slice(0, 2).join('.');
  const exports = [...pinnedNames(types, mainOf)].map(([rel, list]) => {
    const names = list.map(([n, e]) => (n === e ? n : `${n} as ${e}`)).join(', ');
    return `export type { ${names} } from './${rel.replace(/\.ts$/, '.js')}';`;
  });
  const q = JSON.stringify(version);
  const from = `${versionIdent(version)}/pinned.ts`;
  const pinnedJs = layoutImport(from, 'pinned');
  const finalJs = layoutImport(from, 'final');
  const responseTypesJs = layoutImport(from, 'responseTypes');
  const encodeTypesJs = layoutImport(from, 'encodeTypes');
  return `${banner(version)}import { pin, type PinnedOptions, type PinnedResult } from '${pinnedJs}';
import { preload as preloadTasks } from '${layoutImport(from, 'validators')}';
import type { Responses } from './responses.js';
import type { Requests } from './responses.js';
import type { PinnedEncoded, PinnedEncodeOptions, PinnedEncodeResult } from '${encodeTypesJs}';

export { isFinal } from '${finalJs}';
export type { Final } from '${finalJs}';
export type { Pinned, PinnedDecoder, PinnedOptions, PinnedResult, PinnedTask } from '${pinnedJs}';
export type { AsyncStatus, AsyncVariant, SyncVariant } from '${responseTypesJs}';
// The envelope's task status the decoded types use where a schema leaves \`status\` open (equal to
// this version's own TaskStatus enum); exported so that a declaration file can name it.
export type { TaskStatus as EnvelopeTaskStatus } from '${responseTypesJs}';
export type { Responses } from './responses.js';
export type { Requests } from './responses.js';
export type { Frozen, PinnedEncoded, PinnedEncodeOptions, PinnedEncodeResult, PinnedEncoder } from '${encodeTypesJs}';
export { newIdempotencyKey } from '${layoutImport(from, 'idempotency')}';

/** A task name of AdCP ${version} (${manifest.tasks.length} tasks). */
export type TaskName = keyof Responses & string;

/** What decode(task, ...) returns in AdCP ${version}: the final response or an async variant. */
export type Response<T extends TaskName> = Responses[T];

/** What encode(task, args) takes in AdCP ${version}: the task's request schema's type. */
export type Request<T extends TaskName> = Requests[T];

/** What encode(task, ...) returns in AdCP ${version}: the frozen request, its task and version. */
export type EncodedRequest<T extends TaskName> = PinnedEncoded<${q}, Requests, T>;

/** What safeEncode(task, ...) returns: the encoded request, or the error. */
export type SafeEncodeResult<T extends TaskName> = PinnedEncodeResult<${q}, Requests, T>;

/** Options of encode and safeEncode: the bounds; \`version\` is this import's. */
export type EncodeOptions = PinnedEncodeOptions;

/** Options of decode, safeDecode and createDecoder: all of adcp-decode's but \`version\`, which this import fixes. */
export type DecodeOptions = PinnedOptions;

/** What safeDecode(task, ...) returns: the data typed in AdCP ${version}, or the error. */
export type SafeDecodeResult<T extends TaskName> = PinnedResult<${q}, Responses, T>;

const pinned = pin<${q}, Responses, Requests>(${q});

/**
 * Decodes a seller's answer to \`task\` by the AdCP ${version} schemas (whatever \`adcp_version\` it announces), or throws a DecodeError.
 *
 * @example
 * import { decode, isFinal } from 'adcp-decode/${release}';
 * const response = decode('get_products', result);
 * if (isFinal(response)) show(response.products);
 */
export const decode = pinned.decode;

/**
 * Like decode, but returns \`{ success: true, data, version: ${q} }\` or \`{ success: false, error }\`.
 *
 * @example
 * const r = safeDecode('get_media_buys', result);
 */
export const safeDecode = pinned.safeDecode;

/**
 * Checks \`args\` against the task's AdCP ${version} request schema, stamps the version fields it
 * defines, and returns the frozen request to send (and to resend as is on a network retry); or
 * throws a RequestError (\`INVALID_REQUEST\`).
 *
 * @example
 * import { encode, newIdempotencyKey } from 'adcp-decode/${release}';
 * const request = encode('create_media_buy', { ...plan, idempotency_key: newIdempotencyKey() });
 * await client.callTool({ name: request.task, arguments: request.args });
 */
export const encode = pinned.encode;

/**
 * Like encode, but returns \`{ success: true, data }\` or \`{ success: false, error }\`.
 *
 * @example
 * const r = safeEncode('get_products', args);
 */
export const safeEncode = pinned.safeEncode;

/**
 * Binds default options (per seller agent, say) to an AdCP ${version} decoder and encoder: its
 * decode, safeDecode, encode and safeEncode share them.
 *
 * @throws {DecodeError} \`INVALID_OPTION\` when an option is invalid.
 * @example
 * const seller = createDecoder({ maxBytes: 1024 * 1024 });
 */
export const createDecoder = pinned.createDecoder;

/**
 * Loads the AdCP ${version} validators of tasks before their first decode: needed in bundles,
 * browsers and workers (one chunk per task); in Node decode() loads them itself on first use.
 *
 * @throws {DecodeError} \`UNKNOWN_TASK\` for a task ${version} lacks, \`INTERNAL\` when a chunk cannot be loaded.
 * @example
 * await preload(['get_products', 'create_media_buy']);
 */
export const preload = (tasks: TaskName | readonly TaskName[]): Promise<void> => preloadTasks(tasks, ${q});

${exports.join('\n')}
`;
}

/**
 * The Node entry of a pinned import: validators load on first use, as through the root's Node entry.
 *
 * @param version The AdCP version.
 * @returns The text of `node.ts`.
 * @example
 * pinnedNodeModule('3.1.19');
 */
export function pinnedNodeModule(version: string): string {
  return `${banner(version)}import '${layoutImport(`${versionIdent(version)}/node.ts`, 'nodeLoader')}';

export * from './pinned.js';
`;
}
