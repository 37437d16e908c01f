/**
 * The ahead-of-time compiled validators (src/generated/<v>/validators/*.js, ES modules reached
 * through each version's generated import map), held once loaded, and Ajv errors as
 * {@link ValidationIssue}s. Nothing is compiled at run time and importing this module loads no
 * validator. A task's modules are loaded by {@link preload} (any runtime, any bundler) or, where
 * the runtime can load a module synchronously (Node, see node-validators.ts), on first use, so
 * that decode() stays synchronous.
 */
import { DecodeError, type ValidationIssue } from '../errors/errors.js';
import { defaultVersion, validatorsByVersion, versionFolders, versions, type Version } from '../generated/index.js';
import { LAYOUT } from '../layout.js';
import { boundIssues } from './issue-listing.js';
import type { AsyncStatus } from '../schema/response-types.js';

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

/** Which module of a task: the fast (first-error) validators or the error-listing ones. */
type ValidatorKind = 'fast' | 'listing';

/** A version's generated import map: per task, an import of each of its two validator modules. */
export type ValidatorImports = Readonly<Record<string, Readonly<Record<ValidatorKind, () => Promise<unknown>>>>>;

/**
 * Loads a validator module synchronously, given its path relative to src/ (or dist/)
 * (`./generated/<v>/validators/<task>.js`), or throws. Installed by the Node entry.
 */
export type SyncModuleLoader = (file: string) => unknown;

type ValidatorModule = Readonly<Record<string, unknown>>;

const modules = new Map<string, ValidatorModule>();
let syncLoader: SyncModuleLoader | undefined;

/**
 * Lets decode() load a validator module synchronously on first use (the Node entry installs
 * require()); elsewhere a task's validators must be {@link preload}ed.
 * @param loader Loads a module given its path relative to src/ (or dist/), or throws.
 * @example installSyncLoader(createRequire(import.meta.url));
 */
export function installSyncLoader(loader: SyncModuleLoader): void {
  syncLoader = loader;
}

/** A validator module's path relative to src/ (or dist/), where the Node loader (node-validators.ts) sits. */
function moduleFile(version: Version, task: string, kind: ValidatorKind): string {
  return `./${LAYOUT.generated}/${versionFolders[version]}/validators/${task}${kind === 'listing' ? '.errors' : ''}.js`;
}

function isModule(value: unknown): value is ValidatorModule {
  return typeof value === 'object' && value !== null;
}

function unloadable(version: Version, task: string, kind: ValidatorKind, how: string, cause?: unknown): DecodeError {
  const file = moduleFile(version, task, kind).slice(2);
  return new DecodeError(
    'INTERNAL',
    `adcp-decode could not load its validator module ${file} (${how}): a packaging fault, not the seller's; ` +
      `in a bundle, call \`await preload(${JSON.stringify(task)})\` before decoding and ship every chunk the bundler wrote, or keep adcp-decode external`,
    { task, version, ...(cause === undefined ? {} : { cause }) },
  );
}

function loadSync(version: Version, task: string, kind: ValidatorKind): ValidatorModule {
  const key = `${version}/${task}/${kind}`;
  const held = modules.get(key);
  if (held !== undefined) return held;
  if (syncLoader === undefined) throw unloadable(version, task, kind, 'not preloaded, and this runtime cannot load it on first use');
  let mod: unknown;
  try {
    mod = syncLoader(moduleFile(version, task, kind));
  } catch (cause) {
    throw unloadable(version, task, kind, 'loading it failed', cause);
  }
  if (!isModule(mod)) throw unloadable(version, task, kind, 'it is not a module');
  modules.set(key, mod);
  return mod;
}

/**
 * Loads the validators of tasks (both the fast and the error-listing ones) through the generated
 * import map, so that decode() finds them without loading anything. Needed before the first
 * decode of a task in bundles and browsers (a bundler splits the validators into one chunk per
 * task); in Node decode() loads them itself on first use.
 * @param tasks A task name, or several.
 * @param version The AdCP version whose validators to load; the default version when omitted.
 * @throws {DecodeError} `UNKNOWN_TASK` for a task the version lacks, `UNSUPPORTED_VERSION` for an
 *   unknown version, `INTERNAL` when a module cannot be loaded (a chunk missing from a bundle).
 * @example
 * await preload(['get_products', 'create_media_buy']);
 * const result = decode('get_products', callToolResult);
 */
export async function preload(tasks: string | readonly string[], version: Version = defaultVersion): Promise<void> {
  if (!(versions as readonly unknown[]).includes(version)) {
    throw new DecodeError(
      'UNSUPPORTED_VERSION',
      `${JSON.stringify(String(version))} is not a bundled AdCP version (${versions.join(', ')})`,
    );
  }
  const map = validatorsByVersion[version];
  const list = typeof tasks === 'string' ? [tasks] : tasks;
  const jobs: Array<Promise<void>> = [];
  for (const task of list) {
    const imports = Object.hasOwn(map, task) ? map[task] : undefined;
    if (imports === undefined)
      throw new DecodeError('UNKNOWN_TASK', `${JSON.stringify(String(task)).slice(0, 80)} is not an AdCP ${version} task`, { version });
    for (const kind of ['fast', 'listing'] as const) {
      const key = `${version}/${task}/${kind}`;
      if (modules.has(key)) continue;
      jobs.push(
        imports[kind]().then(
          (mod) => {
            if (!isModule(mod)) throw unloadable(version, task, kind, 'it is not a module');
            modules.set(key, mod);
          },
          (cause: unknown) => {
            throw unloadable(version, task, kind, 'importing it failed', cause);
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
 * @throws {DecodeError} `INTERNAL` when its module is not loaded and cannot be.
 */
export function fastValidator(version: Version, task: string, variant: Target): CompiledValidator | undefined {
  const validate = loadSync(version, task, 'fast')[EXPORT_KEYS[variant]];
  return typeof validate === 'function' ? (validate as CompiledValidator) : undefined;
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
 * @throws {DecodeError} `INTERNAL` when the listing module is not loaded and cannot be.
 */
export function listIssues(version: Version, task: string, variant: Target, data: unknown): IssueListing {
  const mod = loadSync(version, task, 'listing');
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
