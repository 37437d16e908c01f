/**
 * The entry module of a pinned version, `pinned.ts` (`adcp-decode/<major>.<minor>`): everything a
 * buyer file needs, bound to the version (decode, safeDecode, encode, safeEncode, createDecoder,
 * decodeTaskStatus, taskHandle, classifyRecovery, preload), what needs no binding (isFinal, the errors, formatIssues, newIdempotencyKey), and every
 * named type of the version. One entry on every runtime: validators load on first use where the
 * runtime can (src/validate/loader/), through preload() elsewhere.
 */

import type { LAYOUT } from '../layout.js';
import type { Manifest } from './load.js';
import { banner, layoutImport, type Stamp, versionIdent } from './output.js';

/** What a pinned entry re-exports as it is from the hand-written code: a module of src/layout.ts and its names. */
interface Reexport {
  readonly from: Exclude<keyof typeof LAYOUT, 'generated'>;
  readonly values?: readonly string[];
  readonly types?: readonly string[];
}

/** The release-independent part of a pinned entry; a name added here is exported by every pinned entry. */
const REEXPORTS: readonly Reexport[] = [
  { from: 'final', values: ['isFinal'], types: ['Final'] },
  { from: 'extra', values: ['extra'] },
  {
    from: 'pinned',
    types: [
      'Pinned',
      'PinnedDecoder',
      'PinnedOptions',
      'PinnedResult',
      'PinnedTask',
      'PinnedPolledTask',
      'PinnedPolledTaskOf',
      'PinnedTaskType',
      'PinnedTaskStatusOptions',
      'PinnedPolledTaskFor',
    ],
  },
  { from: 'taskHandle', types: ['TaskHandle', 'TaskHandleFields'] },
  { from: 'responseTypes', types: ['AsyncStatus', 'AsyncVariant', 'SyncVariant'] },
  {
    from: 'errors',
    values: [
      'DecodeError',
      'LimitError',
      'RequestError',
      'SchemaMismatchError',
      'TaskFailedError',
      'TaskMismatchError',
      'VersionMismatchError',
    ],
    types: ['AdcpError', 'DecodeErrorCode', 'Recovery', 'RecoveryClassification', 'ValidationIssue'],
  },
  { from: 'format', values: ['formatIssues'] },
  {
    from: 'sellerErrors',
    types: [
      'AudienceTooSmallDetails',
      'BudgetTooLowDetails',
      'ConflictDetails',
      'KnownSellerError',
      'RateLimitedDetails',
      'VersionUnsupportedDetails',
    ],
  },
  { from: 'sentRequest', types: ['SentRequest'] },
  { from: 'options', types: ['Transport'] },
  { from: 'encodeTypes', types: ['Frozen', 'PinnedEncoded', 'PinnedEncodeOptions', 'PinnedEncodeResult', 'PinnedEncoder'] },
  { from: 'idempotency', values: ['newIdempotencyKey'] },
];

/** What src/decode/pinned.ts's pin() binds to the version, exported under the same name, with its doc (`V` the version, `R` its release). */
const BOUND: ReadonlyArray<readonly [name: string, doc: (version: string, release: string) => string]> = [
  [
    'decode',
    (
      v,
      r,
    ) => `Decodes a seller's answer to \`task\` by the AdCP ${v} schemas (whatever \`adcp_version\` it announces), or throws a DecodeError.
 *
 * @example
 * import { decode, isFinal } from 'adcp-decode/${r}';
 * const response = decode('get_products', result);
 * if (isFinal(response)) show(response.products);`,
  ],
  [
    'safeDecode',
    (v) => `Like decode, but returns \`{ success: true, data, version: ${JSON.stringify(v)} }\` or \`{ success: false, error }\`.
 *
 * @example
 * const r = safeDecode('get_media_buys', result);`,
  ],
  [
    'encode',
    (v, r) => `Checks \`args\` against the task's AdCP ${v} request schema, stamps the version fields it
 * defines, and returns the frozen request to send (and to resend as is on a network retry); or
 * throws a RequestError (\`INVALID_REQUEST\`).
 *
 * @example
 * import { encode, newIdempotencyKey } from 'adcp-decode/${r}';
 * const request = encode('create_media_buy', { ...plan, idempotency_key: newIdempotencyKey() });
 * await client.callTool({ name: request.task, arguments: request.args });`,
  ],
  [
    'safeEncode',
    () => `Like encode, but returns \`{ success: true, data }\` or \`{ success: false, error }\`.
 *
 * @example
 * const r = safeEncode('get_products', args);`,
  ],
  [
    'createDecoder',
    (v) => `Binds default options (per seller agent, say) to an AdCP ${v} decoder and encoder: its
 * decode, safeDecode, encode and safeEncode share them.
 *
 * @throws {DecodeError} \`INVALID_OPTION\` when an option is invalid.
 * @example
 * const seller = createDecoder({ maxBytes: 1024 * 1024 });`,
  ],
  [
    'decodeTaskStatus',
    (
      v,
    ) => `Decodes a task-status poll by AdCP ${v} (${v.startsWith('3.0.') ? 'a `tasks/get` response' : 'what `get_task_status` returned'}) and its result, typed by \`taskType\`.
 *
 * Given the task's \`handle\` (taskHandle), a response naming another \`task_type\` or \`task_id\` is refused
 * (\`TASK_MISMATCH\`) and \`data\` is typed by the handle's task.
 *
 * @throws {TaskFailedError} For a failed, rejected or canceled task.
 * @throws {TaskMismatchError} With \`handle\`, for another task's response.
 * @throws {DecodeError} As decode() throws, for the status response and for the result.
 * @example
 * const task = decodeTaskStatus(polled);
 * if (task.taskType === 'create_media_buy' && task.status === 'completed') use(task.data);`,
  ],
  [
    'taskHandle',
    (_v, r) => `The handle of a \`submitted\` or \`working\` answer decode() returned (the task, the seller's
 * \`task_id\`, the version, the registered \`operation_id\`), or \`undefined\` for any other answer:
 * keep it (plain data) to correlate the task's polls and webhooks.
 *
 * @throws {DecodeError} \`INVALID_INPUT\` for an answer decoded for another task or version, or a copy.
 * @example
 * import { decode, decodeTaskStatus, taskHandle } from 'adcp-decode/${r}';
 * const handle = taskHandle('create_media_buy', decode('create_media_buy', result));
 * if (handle) decodeTaskStatus(polled, { handle }); // TASK_MISMATCH for another task's answer`,
  ],
  [
    'classifyRecovery',
    (v) => `Classifies an AdCP error: its own valid \`recovery\`, else the AdCP ${v} error-code table, else the unknown-code policy.
 *
 * @example
 * classifyRecovery({ code: 'RATE_LIMITED', retry_after: 5 }); // { recovery: 'transient', retryAfterSeconds: 5 }`,
  ],
  [
    'preload',
    (v) => `Loads the AdCP ${v} validators of tasks before their first decode: needed in bundles, browsers
 * and workers (one chunk per task); in Node decode() loads them itself on first use.
 *
 * @throws {DecodeError} \`UNKNOWN_TASK\` for a task ${v} lacks, \`INTERNAL\` when a chunk cannot be loaded.
 * @example
 * await preload(['get_products', 'create_media_buy']);`,
  ],
];

/** Names the pinned entry module (or a release module's index.d.ts) declares itself; no schema type may take them. */
const PINNED_OWN_NAMES = [
  // A release module's own: its release object, and the union of its envelope's task types.
  'release',
  'EnvelopeTaskType',
  ...BOUND.map(([name]) => name),
  ...REEXPORTS.flatMap((r) => [...(r.values ?? []), ...(r.types ?? [])]),
  'TaskName',
  'PolledTask',
  'PolledTaskOf',
  'TaskStatusOptions',
  'Response',
  'Responses',
  'DecodeOptions',
  'SafeDecodeResult',
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
 * The pinned entry (`adcp-decode/<major>.<minor>`): {@link BOUND} bound to this version by
 * src/decode/pinned.ts, {@link REEXPORTS}, and every named type of the version (the one
 * `types.ts` module, whose names {@link pinnedNames} made unique beside these).
 *
 * @param stamp What the banner says.
 * @param manifest The release's tasks.
 * @returns The text of `pinned.ts`.
 * @example
 * pinnedModule(stamp, manifest);
 */
export function pinnedModule(stamp: Stamp, manifest: Manifest): string {
  const { version } = manifest;
  const release = version.split('.').slice(0, 2).join('.');
  const q = JSON.stringify(version);
  const from = `${versionIdent(version)}/pinned.ts`;
  const reexports = REEXPORTS.flatMap(({ from: target, values, types: typeNames }) => {
    const spec = layoutImport(from, target);
    return [
      ...(values === undefined ? [] : [`export { ${values.join(', ')} } from '${spec}';`]),
      ...(typeNames === undefined ? [] : [`export type { ${typeNames.join(', ')} } from '${spec}';`]),
    ];
  });
  const bound = BOUND.map(([name, doc]) => `/**\n * ${doc(version, release)}\n */\nexport const ${name} = pinned.${name};`);
  const responseTypesJs = layoutImport(from, 'responseTypes');
  return `${banner(stamp, version)}import {
  pin,
  type PinnedOptions,
  type PinnedPolledTask,
  type PinnedPolledTaskOf,
  type PinnedResult,
  type PinnedTaskStatusOptions,
  type PinnedTaskType,
} from '${layoutImport(from, 'pinned')}';
import type { Requests, Responses, Results } from './responses.js';
import { validators } from './validators/index.js';
import type { PinnedEncoded, PinnedEncodeOptions, PinnedEncodeResult } from '${layoutImport(from, 'encodeTypes')}';

${reexports.join('\n')}
// The envelope's task status the decoded types use where a schema leaves \`status\` open (equal to
// this version's own TaskStatus enum); exported so that a declaration file can name it.
export type { TaskStatus as EnvelopeTaskStatus } from '${responseTypesJs}';
export type { Responses } from './responses.js';
export type { Requests } from './responses.js';
export type { Results } from './responses.js';

/** A task name of AdCP ${version} (${manifest.tasks.length} tasks). */
export type TaskName = keyof Responses & string;

/** What decode(task, ...) returns in AdCP ${version}: the final response or an async variant. */
export type Response<T extends TaskName> = Responses[T];

/** What decodeTaskStatus returns in AdCP ${version}: narrow on \`taskType\` to type \`data\`. */
export type PolledTask = PinnedPolledTask<${q}, Responses, Results>;

/** A polled task of one task type in AdCP ${version}. */
export type PolledTaskOf<K extends PinnedTaskType<${q}>> = PinnedPolledTaskOf<${q}, Responses, K, Results>;

/** Options of decodeTaskStatus: those of decode, and the \`handle\` of the task polled. */
export type TaskStatusOptions = PinnedTaskStatusOptions;

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

const pinned = pin<${q}, Responses, Requests, Results>(${q}, validators);

${bound.join('\n\n')}

export type * from './types.js';
`;
}
