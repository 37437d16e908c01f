/**
 * The exceptions: what the spec says of a release outside the schemas codegen compiles, as tables
 * that quote where it says so.
 *
 * Schema exceptions: where a schema's own text says a list is open ("Runners and sellers MUST
 * accept unknown scenario strings (open-for-extension)") but its `enum` closes it, codegen compiles
 * the list open (types and validators alike), so a value the spec tells buyers to accept is not
 * refused. For the bundled releases each exception quotes the sentence that opens the list; the
 * build fails when that sentence or the closed list is gone (the exception is stale: review it),
 * and when a schema text that says a list is open, or an `x-extensible` enum, has no exception (a
 * new case: add it here). A release this table has no row of (one a buyer generates) gets every
 * such list compiled open, and the generator names them.
 *
 * Result exceptions: which schema judges the terminal result of a task type where it is not its
 * task's response, for the releases whose manifest has no `task_result_resolution` (before 3.2).
 *
 * Outcome statuses: a terminal status that is a task's answer, not its failure, from the line whose
 * task-status enum says so (3.2's `rejected`: "a structured AdCP task outcome").
 */
import { isObject, type Json, type JsonObject, type SchemaFile } from './load.js';

/** One list compiled open, and why. */
export interface SchemaException {
  readonly version: string;
  /** The schema file, relative to the version folder. */
  readonly schema: string;
  /** JSON Pointer of the node whose `enum` is dropped (it keeps its `type`). */
  readonly list: string;
  /** JSON Pointer of the node whose `description` says the list is open. */
  readonly text: string;
  /** The words of that description that open the list, quoted exactly. */
  readonly says: string;
  /** Why the list is compiled open. */
  readonly reason: string;
}

const BUYERS_ACCEPT = 'the schema tells receivers to accept values it does not list; a closed enum would refuse a conformant answer';

/** The exceptions, by version and schema. */
export const SCHEMA_EXCEPTIONS: readonly SchemaException[] = [
  {
    version: '3.0.26',
    schema: 'compliance/comply-test-controller-response.json',
    list: '/oneOf/0/properties/scenarios/items',
    text: '/oneOf/0/properties/scenarios',
    says: 'Runners and sellers MUST accept unknown scenario strings (open-for-extension)',
    reason: `${BUYERS_ACCEPT} (a seller's list_scenarios answer names newer scenarios; 3.1 lists none)`,
  },
  {
    version: '3.0.26',
    schema: 'enums/advertiser-industry.json',
    list: '',
    text: '',
    says: 'Sellers MUST accept unknown values gracefully',
    reason: `${BUYERS_ACCEPT} (x-extensible: the taxonomy evolves)`,
  },
  {
    version: '3.1.19',
    schema: 'enums/advertiser-industry.json',
    list: '',
    text: '',
    says: 'Sellers MUST accept unknown values gracefully',
    reason: `${BUYERS_ACCEPT} (x-extensible: the taxonomy evolves; search_brands answers carry it)`,
  },
  {
    version: '3.1.19',
    schema: 'enums/media-buy-action-mode.json',
    list: '',
    text: '',
    says: 'Buyer SDKs MUST tolerate unknown future values',
    reason: `${BUYERS_ACCEPT} (x-extensible: the buyer treats an unknown mode's action as unavailable)`,
  },
];

/** Descriptions that say a list is open. */
const OPEN_TEXT = /MUST (?:accept|tolerate) unknown|open-for-extension/i;

/** Keys whose values are instances, not schemas. */
const INSTANCE_KEYS = new Set(['examples', 'default', 'const', 'enum']);

function escapeKey(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

function at(root: Json, pointer: string): Json | undefined {
  let node: Json | undefined = root;
  for (const raw of pointer === '' ? [] : pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    node = Array.isArray(node) ? node[Number(key)] : isObject(node) ? node[key] : undefined;
  }
  return node;
}

/** Every node that says its list is open and holds a closed one (its own `enum`, or its items'), by pointer. */
function openClaims(node: Json, pointer: string, out: Map<string, string>): Map<string, string> {
  if (Array.isArray(node)) {
    for (const [i, item] of node.entries()) openClaims(item, `${pointer}/${i}`, out);
  }
  if (!isObject(node)) return out;
  const says = (typeof node.description === 'string' && OPEN_TEXT.test(node.description)) || node['x-extensible'] === true;
  if (says) {
    if (Array.isArray(node.enum)) out.set(pointer, pointer);
    else if (isObject(node.items) && Array.isArray(node.items.enum)) out.set(`${pointer}/items`, pointer);
  }
  for (const [key, value] of Object.entries(node)) if (!INSTANCE_KEYS.has(key)) openClaims(value, `${pointer}/${escapeKey(key)}`, out);
  return out;
}

/**
 * Applies a release's exceptions to its schemas in place, after checking each against the text it
 * quotes and checking that no other schema text opens a closed list. A release without reviewed
 * exceptions (no row of SCHEMA_EXCEPTIONS) gets each list its schema text opens compiled open.
 *
 * @param version The AdCP version.
 * @param base Its `$id` base.
 * @param byId Its schema files by `$id`.
 * @returns The lists compiled open without a reviewed exception, as `<file>#<pointer>` (none for a bundled release).
 * @throws Error for a stale exception or an open-list text without one (a release with reviewed exceptions).
 * @example
 * applyExceptions('3.0.26', '/schemas/3.0.26/', loadSchemas('3.0.26', root));
 */
export function applyExceptions(version: string, base: string, byId: Map<string, SchemaFile>): string[] {
  const mine = SCHEMA_EXCEPTIONS.filter((e) => e.version === version);
  if (mine.length === 0) {
    const opened: string[] = [];
    for (const file of byId.values())
      for (const [list, text] of openClaims(file.schema, '', new Map())) {
        const node = at(file.schema, list);
        if (isObject(node) && node.type === 'string') {
          delete (node as JsonObject).enum;
          opened.push(`${file.rel}#${text === list ? list : `${list} (${text} says so)`}`);
        }
      }
    return opened.sort();
  }
  for (const file of byId.values()) {
    for (const [list, text] of openClaims(file.schema, '', new Map())) {
      if (!mine.some((e) => e.schema === file.rel && e.list === list && e.text === text)) {
        throw new Error(
          `${version}/${file.rel}#${text} says its list is open but its enum (at #${list}) closes it: add it to SCHEMA_EXCEPTIONS in src/generate/exceptions.ts with the reason`,
        );
      }
    }
  }
  for (const e of mine) {
    const file = byId.get(`${base}${e.schema}`);
    const text = file === undefined ? undefined : at(file.schema, e.text);
    const list = file === undefined ? undefined : at(file.schema, e.list);
    const description = isObject(text) ? text.description : undefined;
    if (typeof description !== 'string' || !description.includes(e.says) || !isObject(list) || !Array.isArray(list.enum)) {
      throw new Error(
        `schema exception ${version}/${e.schema}#${e.list} is stale: the schema no longer says "${e.says}" at #${e.text} or no longer closes the list; review it in src/generate/exceptions.ts`,
      );
    }
    if (list.type !== 'string') throw new Error(`schema exception ${version}/${e.schema}#${e.list}: expected a list of strings`);
    delete (list as JsonObject).enum;
  }
  return [];
}

/**
 * Applies the bundled version's exceptions that fit an earlier patch's file of the same path (its
 * text still quotes them, its list still closes), in place; one that does not fit is left out: the
 * patch's own list then judges (src/generate/patches.ts).
 *
 * @param version The bundled version whose exceptions apply.
 * @param file A patch's file, under the bundled `$id`.
 * @example
 * applyFittingExceptions('3.0.26', file);
 */
export function applyFittingExceptions(version: string, file: SchemaFile): void {
  for (const e of SCHEMA_EXCEPTIONS) {
    if (e.version !== version || e.schema !== file.rel) continue;
    const text = at(file.schema, e.text);
    const list = at(file.schema, e.list);
    const description = isObject(text) ? text.description : undefined;
    if (
      typeof description === 'string' &&
      description.includes(e.says) &&
      isObject(list) &&
      Array.isArray(list.enum) &&
      list.type === 'string'
    )
      delete (list as JsonObject).enum;
  }
}

/** The schema that judges a task type's terminal result, for the releases of a line whose manifest does not say. */
interface ResultException {
  /** The release line, `3.1`. */
  readonly release: string;
  readonly taskType: string;
  /** The schema, its path in the release. */
  readonly schema: string;
  /** Where the release names it: `enums/task-type.json`'s description of the type, quoted exactly. */
  readonly says: string;
}

/**
 * The result exceptions: 3.2 states them in its manifest (`task_result_resolution`), 3.1 in its
 * task-type enum. 3.0 has none: its task types name no delivery report.
 */
export const RESULT_EXCEPTIONS: readonly ResultException[] = [
  {
    release: '3.1',
    taskType: 'media_buy_delivery',
    schema: 'media-buy/media-buy-delivery-webhook-result.json',
    says: 'The inner result uses media-buy-delivery-webhook-result.json.',
  },
];

/**
 * The result exceptions of a release's line, as the manifest's overrides would state them
 * (`$id`s), each checked against the words that name it: the build fails when they are gone.
 *
 * @param version The release.
 * @param base Its `$id` base.
 * @param enumText `enums/task-type.json`'s description of each task type.
 * @param holds Whether the release holds a schema path.
 * @returns Task type → schema `$id`, or `undefined` when the line has none.
 * @throws Error when the quoted words or the schema are gone (the exception is stale).
 * @example
 * resultSchemas('3.1.19', '/schemas/3.1.19/', texts, (rel) => files.has(rel)); // { media_buy_delivery: '/schemas/3.1.19/media-buy/media-buy-delivery-webhook-result.json' }
 */
export function resultSchemas(
  version: string,
  base: string,
  enumText: Readonly<Record<string, string>>,
  holds: (rel: string) => boolean,
): Record<string, string> | undefined {
  const line = version.split('.').slice(0, 2).join('.');
  const out: Record<string, string> = {};
  for (const e of RESULT_EXCEPTIONS) {
    if (e.release !== line) continue;
    const text = Object.hasOwn(enumText, e.taskType) ? enumText[e.taskType] : undefined;
    if (!holds(e.schema) || text?.includes(e.says) !== true)
      throw new Error(
        `result exception ${line} ${e.taskType}: AdCP ${version} no longer ${holds(e.schema) ? `says "${e.says}" of it in enums/task-type.json` : `holds ${e.schema}`}; the exception is stale: review it in src/generate/exceptions.ts`,
      );
    out[e.taskType] = `${base}${e.schema}`;
  }
  return Object.keys(out).length === 0 ? undefined : out;
}

/** A terminal status that ends a task with its answer (typed data), from a release line on. */
interface OutcomeStatus {
  /** The first release line that reads it so, `3.2`. */
  readonly fromRelease: string;
  readonly status: string;
  /** Where the release says so: `enums/task-status.json`'s description of the status, quoted exactly. */
  readonly says: string;
}

/** 3.1: "Task was rejected by the agent and was not started" (a failure); 3.2 makes it an answer. */
export const OUTCOME_STATUSES: readonly OutcomeStatus[] = [
  { fromRelease: '3.2', status: 'rejected', says: 'This is not a transport failure' },
];

/** `3.2` of `3.2.0-beta.6`, as numbers. */
function lineOf(version: string): [number, number] {
  const [major = 0, minor = 0] = version.split(/[.-]/).map(Number);
  return [major, minor];
}

/**
 * The terminal statuses that are a task's answer in a release: each row's from its line on, where
 * the release's task-status enum still says so. The row's own line is reviewed: its words gone
 * fails the build (stale); a later line without them keeps the status a failure.
 *
 * @param version The release.
 * @param enumText `enums/task-status.json`'s description of each status.
 * @returns The statuses, in the table's order.
 * @throws Error when the row's own line no longer says it (the row is stale).
 * @example
 * outcomeStatuses('3.2.0-beta.6', texts); // ['rejected']
 */
export function outcomeStatuses(version: string, enumText: Readonly<Record<string, string>>): string[] {
  const [major, minor] = lineOf(version);
  const out: string[] = [];
  for (const row of OUTCOME_STATUSES) {
    const [fromMajor, fromMinor] = lineOf(row.fromRelease);
    if (major !== fromMajor || minor < fromMinor) continue;
    const text = Object.hasOwn(enumText, row.status) ? enumText[row.status] : undefined;
    if (text?.includes(row.says) === true) out.push(row.status);
    else if (minor === fromMinor)
      throw new Error(
        `outcome status ${row.fromRelease} ${row.status}: AdCP ${version} no longer says "${row.says}" of it in enums/task-status.json; the row is stale: review it in src/generate/exceptions.ts`,
      );
  }
  return out;
}
