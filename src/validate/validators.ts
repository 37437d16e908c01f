/**
 * The ahead-of-time compiled validators (src/generated/<v>/validators/*.js, ES modules reached
 * through each version's generated import map), held once loaded, and Ajv errors as
 * {@link ValidationIssue}s. Nothing is compiled at run time and importing this module loads no
 * validator. A task's modules are loaded by {@link preload} (any runtime, any bundler) or, where
 * the runtime can load a module synchronously (Node), on first use, so that decode() stays
 * synchronous. Which of the two `#validator-loader` (package.json#imports) picks by the runtime's
 * conditions, so that every entry that decodes gets the same loading, whatever else is imported.
 */
import { loadModule } from '#validator-loader';
import { DecodeError, describeThrown, describeValue, type ErrorContext, type ValidationIssue } from '../errors/errors.js';
import { shownText } from '../errors/format.js';
import { LAYOUT } from '../layout.js';
import { releaseFor } from '../schema/releases.js';
import type { AsyncStatus } from '../schema/response-types.js';
import type { ValidatorImports, ValidatorKind } from '../schema/tables.js';
import type { Version } from '../schema/versions.js';
import { boundIssues } from './issue-listing.js';

/** Which schema of a task a payload is checked against. */
export type Variant = 'response' | AsyncStatus;

/** Which schema of a task a value is validated against: a response variant, or (encode) the request. */
export type Target = Variant | 'request';

interface AjvErrorObject {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

/** An Ajv standalone validate function. */
export interface CompiledValidator {
  (data: unknown): boolean;
  errors?: AjvErrorObject[] | null;
}

type ValidatorModule = Readonly<Record<string, unknown>>;

const modules = new Map<string, ValidatorModule>();

/** One validator module of a task, and the release the seller announced when that picked the version. */
interface ModuleAt {
  readonly version: Version;
  readonly task: string;
  readonly kind: ValidatorKind;
  readonly announced?: string | undefined;
  /** The call the validator serves (decode's stand-in release), for the errors. */
  readonly context?: ErrorContext | undefined;
}

/** A validator module's file name, in its release's validators folder. */
function moduleName({ task, kind }: ModuleAt): string {
  return `validators/${task}${kind === 'listing' ? '.errors' : ''}.js`;
}

/** A validator module's path: a bundled release's relative to src/ (or dist/), a generated release's relative to its module. */
function moduleFile(at: ModuleAt): string {
  const { files } = releaseFor(at.version);
  return 'package' in files ? `${LAYOUT.generated}/${files.package}/${moduleName(at)}` : `./${moduleName(at)}`;
}

/** From the loader's folder up to src/ (or dist/), where {@link moduleFile}'s paths start. */
const LOADER_TO_ROOT = '../'.repeat(LAYOUT.validatorLoaders.split('/').length);

function isModule(value: unknown): value is ValidatorModule {
  return typeof value === 'object' && value !== null;
}

/** A module that could not be loaded (a chunk missing from a bundle, a broken install): adcp-decode's packaging, not the seller. */
function unloadable(at: ModuleAt, how: string, cause?: unknown): DecodeError {
  return new DecodeError(
    'INTERNAL',
    `adcp-decode could not load its validator module ${moduleFile(at)} (${how}): a packaging fault, not the seller's; ` +
      `in a bundle, ship every chunk the bundler wrote, or keep adcp-decode external`,
    { ...at.context, task: at.task, version: at.version, ...(cause === undefined ? {} : { cause }) },
  );
}

/** The validator modules of a release's protocol envelopes and result overrides (import map keys), from its tables. */
function envelopeModules(version: Version): readonly string[] {
  const { envelope, results, tables } = releaseFor(version);
  const poll = envelope.taskStatusPoll;
  const overrides = Object.values(results)
    .map((r) => r.validators)
    .filter((key) => !tables.tasks.includes(key));
  return [envelope.webhookEnvelope, ...('module' in poll ? [poll.module] : []), ...overrides];
}

/** A module not preloaded where only preload() can load it: the caller's setup, and how to fix it. */
function notPreloaded(at: ModuleAt): DecodeError {
  const { task, version, context } = at;
  // An envelope check loads with any task of its version: name the call a buyer writes.
  const call = envelopeModules(version).includes(task)
    ? `call \`await preload(tasks, ${JSON.stringify(version)})\` with the tasks it decodes (it loads the ${task} check too)`
    : `call \`await preload(${JSON.stringify(task)}, ${JSON.stringify(version)})\``;
  const why =
    at.announced === undefined
      ? `adcp-decode has not loaded the AdCP ${version} validators of ${task} (${moduleFile(at)}), and this runtime cannot load them on first use`
      : `the seller's answer announces adcp_version "${shownText(at.announced, 32)}", which version 'auto' judges by AdCP ${version}, ` +
        `whose validators of ${task} are not loaded, and this runtime cannot load them on first use`;
  return new DecodeError(
    'INTERNAL',
    `${why}: not the seller's fault; ${call} before decoding` +
      (at.announced === undefined ? '' : `, or pin the version (the \`version\` option, or a pinned import such as adcp-decode/3.1)`),
    { ...context, task, version },
  );
}

function loadSync(at: ModuleAt): ValidatorModule {
  const key = `${at.version}/${at.task}/${at.kind}`;
  const held = modules.get(key);
  if (held !== undefined) return held;
  if (loadModule === undefined) throw notPreloaded(at);
  const { files } = releaseFor(at.version);
  let mod: unknown;
  try {
    mod = 'package' in files ? loadModule(LOADER_TO_ROOT + moduleFile(at)) : loadModule(moduleFile(at), files.module);
  } catch (cause) {
    throw unloadable(at, 'loading it failed', cause);
  }
  if (!isModule(mod)) throw unloadable(at, 'it is not a module');
  modules.set(key, mod);
  return mod;
}

function invalidTasks(what: string): DecodeError {
  return new DecodeError('INVALID_OPTION', `preload() takes a task name or an array of task names; ${what}`);
}

/** preload()'s `tasks`, read once, each a string (a JavaScript caller can pass what the types forbid). */
function taskList(tasks: unknown): string[] {
  try {
    if (typeof tasks === 'string') return [tasks];
    if (!Array.isArray(tasks)) throw invalidTasks(`got ${describeValue(tasks)}`);
    const list: string[] = [];
    for (let i = 0; i < tasks.length; i++) {
      const task: unknown = tasks[i];
      if (typeof task !== 'string') throw invalidTasks(`tasks[${i}] is ${describeValue(task)}`);
      list.push(task);
    }
    return list;
  } catch (error) {
    // A Proxy or getter that throws is the caller's value failing to be read.
    throw error instanceof DecodeError ? error : invalidTasks(`reading it threw ${describeThrown(error)}`);
  }
}

/**
 * preload() through one release's import map: what a pinned entry calls with its own map, and the
 * root `preload` (src/validate/preload.ts) with the version's, so that a bundle of
 * `adcp-decode/3.1` reaches no other release's validators.
 *
 * @param map The release's import map (src/generated/<v>/validators/index.js).
 * @param version The release.
 * @param tasks A task name, or an array of them.
 * @throws {DecodeError} `INVALID_OPTION` when `tasks` is not a string or an array of strings,
 *   `UNKNOWN_TASK` for a task the version lacks, `INTERNAL` when a module cannot be loaded.
 * @example
 * await preloadFrom(validators, '3.1.19', 'get_products');
 */
export async function preloadFrom(map: ValidatorImports, version: Version, tasks: string | readonly string[]): Promise<void> {
  const jobs: Array<Promise<void>> = [];
  // The envelope checks (webhook, polled task) come with every preload: a webhook service or a
  // poller that preloads its tasks needs nothing else.
  const named = [...taskList(tasks), ...envelopeModules(version)];
  // A task's patch fallback comes with it, so that a runtime without a synchronous loader falls back too.
  for (const task of [...named, ...named.flatMap((t) => patchModules(version, t))]) {
    const imports = Object.hasOwn(map, task) ? map[task] : undefined;
    if (imports === undefined)
      throw new DecodeError('UNKNOWN_TASK', `"${shownText(task, 64)}" is not an AdCP ${version} task`, { version });
    for (const kind of ['fast', 'listing'] as const) {
      const key = `${version}/${task}/${kind}`;
      const load = imports[kind];
      if (modules.has(key) || load === undefined) continue;
      const at: ModuleAt = { version, task, kind };
      jobs.push(
        load().then(
          (mod) => {
            if (!isModule(mod)) throw unloadable(at, 'it is not a module');
            modules.set(key, mod);
          },
          (cause: unknown) => {
            throw unloadable(at, 'importing it failed', cause);
          },
        ),
      );
    }
  }
  await Promise.all(jobs);
}

/** The export names of the variants in a validator module. */
const EXPORT_KEYS: Readonly<Record<Target, string>> = {
  response: 'response',
  working: 'working',
  submitted: 'submitted',
  'input-required': 'input_required',
  request: 'request',
};

/**
 * The fast (first-error) validator of a task's variant, or undefined if the task has none.
 * @param announced The release the seller's `adcp_version` announced, when that picked `version` (for the error).
 * @param context The call the validator serves, for the error.
 * @throws {DecodeError} `INTERNAL` when its module is not loaded and cannot be.
 */
export function fastValidator(
  version: Version,
  task: string,
  variant: Target,
  announced?: string,
  context?: ErrorContext,
): CompiledValidator | undefined {
  const validate = loadSync({ version, task, kind: 'fast', announced, context })[EXPORT_KEYS[variant]];
  return typeof validate === 'function' ? (validate as CompiledValidator) : undefined;
}

/** The patch fallback's modules of a task (or envelope module), every variant. */
function patchModules(version: Version, task: string): string[] {
  const table = releaseFor(version).patches;
  const variants = Object.hasOwn(table, task) ? table[task] : undefined;
  return variants === undefined ? [] : Object.values(variants).flatMap((judges) => judges.map((j) => j.module));
}

/** A patch that accepts a value the bundled validator refused: the newest patch of its schema, and its validator. */
export interface PatchVerdict {
  readonly patch: string;
  readonly validate: CompiledValidator;
}

/**
 * The earlier GA patch of `version`'s release whose schema of a task's variant accepts what the
 * bundled one refused (src/generated/patches.ts, from patch-history/), newest first. Each distinct
 * patch schema is tried once, so a decode costs at most one validation per distinct schema (five
 * at most, 3.0's capabilities); its module loads only now, on a refusal.
 *
 * @param accepts Runs a validator on the value (and its stand-in), as the bundled one was run.
 * @param context The call, for the error when a module cannot be loaded.
 * @returns The patch and its validator, or undefined when none accepts.
 * @throws {DecodeError} `INTERNAL` when a patch module is not loaded and cannot be.
 */
export function patchVerdict(
  version: Version,
  task: string,
  variant: Target,
  accepts: (validate: CompiledValidator) => boolean,
  context?: ErrorContext,
): PatchVerdict | undefined {
  const table = releaseFor(version).patches;
  const variants = Object.hasOwn(table, task) ? table[task] : undefined;
  const key = EXPORT_KEYS[variant];
  const judges = variants !== undefined && Object.hasOwn(variants, key) ? variants[key] : undefined;
  for (const judge of judges ?? []) {
    const validate = fastValidator(version, judge.module, variant, undefined, context);
    if (validate !== undefined && accepts(validate)) return { patch: judge.patches[0] as string, validate };
  }
  return undefined;
}

/** What the error-listing validators found, bounded by src/validate/issue-listing.ts. */
export interface IssueListing {
  readonly issues: ValidationIssue[];
  /** False when issues were left out: past the bounds of boundIssues, or the listing stopped (`stopped`). */
  readonly complete: boolean;
  /** True when the validator stopped past `limit` errors; `issues` then holds the first error it recorded. */
  readonly stopped: boolean;
  /** How many errors Ajv found (0 when it stopped). */
  readonly found: number;
  /** How many listed issues were shortened. */
  readonly shortened: number;
  /** How many errors a listing holds at most (the generated `listingLimit`). */
  readonly limit: number;
}

interface ListingModule {
  readonly listingLimit: number;
  readonly ListingStopped: new (...args: never[]) => Error & { readonly first: unknown };
}

/**
 * Every issue of a payload that failed the fast validator, from the task's error-listing
 * (allErrors) validators, which are loaded only after a first failure. The listing stops
 * (complete: false) once a validator function holds more than `listingLimit` errors, which bounds
 * its memory (see boundedListing in scripts/generate/rewrites.ts).
 * @param context The call the listing serves, for the error.
 * @throws {DecodeError} `INTERNAL` when the listing module is not loaded and cannot be.
 */
export function listIssues(version: Version, task: string, variant: Target, data: unknown, context?: ErrorContext): IssueListing {
  const mod = loadSync({ version, task, kind: 'listing', context });
  const { listingLimit: limit, ListingStopped } = mod as unknown as ListingModule;
  const found = mod[EXPORT_KEYS[variant]];
  const validate = typeof found === 'function' ? (found as CompiledValidator) : undefined;
  const empty = { issues: [], complete: true, stopped: false, found: 0, shortened: 0, limit };
  try {
    if (validate === undefined || validate(data)) return empty;
  } catch (error) {
    // The first error the listing recorded before it stopped.
    if (error instanceof ListingStopped)
      return { ...empty, issues: [toIssue(error.first as AjvErrorObject)], complete: false, stopped: true };
    throw error;
  }
  const errors = validate.errors ?? [];
  return { ...boundIssues(lazyIssues(errors)), stopped: false, found: errors.length, limit };
}

/** Ajv's errors as issues, converted only as far as they are read. */
function* lazyIssues(errors: readonly AjvErrorObject[]): Generator<ValidationIssue> {
  for (const e of errors) yield toIssue(e);
}

function toIssue(e: AjvErrorObject): ValidationIssue {
  return {
    path: e.instancePath,
    keyword: e.keyword,
    params: e.params,
    schemaPath: e.schemaPath,
    message: e.message ?? `must pass "${e.keyword}"`,
  };
}
