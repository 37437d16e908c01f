/**
 * Loads the ahead-of-time compiled validators (src/generated/<v>/validators/*.cjs) on first
 * use of a task, synchronously, and turns Ajv errors into {@link ValidationIssue}s. Nothing is
 * compiled at run time and importing this module loads no validator.
 */
import { createRequire } from 'node:module';
import type { ValidationIssue } from './errors.js';
import { boundIssues } from './issue-listing.js';
import { versionFolders, type Version } from './generated/index.js';
import type { AsyncStatus } from './response-types.js';

/** Which schema of a task a payload is checked against. */
export type Variant = 'response' | AsyncStatus;

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

type ValidatorModule = Readonly<Record<string, CompiledValidator | undefined>>;

// The generated validators are CommonJS (Ajv's standalone output requires its runtime helpers),
// loaded lazily with require so that decode() stays synchronous.
const require = createRequire(import.meta.url);
const modules = new Map<string, ValidatorModule>();

function load(file: string): ValidatorModule {
  let mod = modules.get(file);
  if (mod === undefined) {
    mod = require(file) as ValidatorModule;
    modules.set(file, mod);
  }
  return mod;
}

function exportKey(variant: Variant): string {
  return variant.replace('-', '_');
}

/** The export names of the variants, as exportKey() spells them. */
const EXPORT_KEYS: Readonly<Record<Variant, string>> = { response: 'response', working: 'working', submitted: 'submitted', 'input-required': 'input_required' };

/** Fast validator modules by version, then task: a decode finds its module without building a path. */
const fastModules = new Map<Version, Map<string, ValidatorModule>>();

/** The fast (first-error) validator of a task's variant, or undefined if the task has none. */
export function fastValidator(version: Version, task: string, variant: Variant): CompiledValidator | undefined {
  let byTask = fastModules.get(version);
  if (byTask === undefined) {
    byTask = new Map();
    fastModules.set(version, byTask);
  }
  let mod = byTask.get(task);
  if (mod === undefined) {
    mod = load(`./generated/${versionFolders[version]}/validators/${task}.cjs`);
    byTask.set(task, mod);
  }
  return mod[EXPORT_KEYS[variant]];
}

/** What the error-listing validators found, bounded by src/issue-listing.ts. */
export interface IssueListing {
  readonly issues: ValidationIssue[];
  /** False when issues were left out: past the bounds of boundIssues, or the listing stopped (`stopped`). */
  readonly complete: boolean;
  /** True when the validator stopped past `limit` errors; `issues` is then empty. */
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
  readonly ListingStopped: new (...args: never[]) => Error;
}

/**
 * Every issue of a payload that failed the fast validator, from the error-listing (allErrors)
 * validators, which are loaded only after a first failure. The listing stops (complete: false)
 * once a validator function holds more than `listingLimit` errors, which bounds its memory
 * (see boundedListing in scripts/generate.ts).
 */
export function listIssues(version: Version, task: string, variant: Variant, data: unknown): IssueListing {
  const mod = load(`./generated/${versionFolders[version]}/validators/all.errors.cjs`);
  const { listingLimit: limit, ListingStopped } = mod as unknown as ListingModule;
  const validate = mod[`${task}__${exportKey(variant)}`];
  const empty = { issues: [], complete: true, stopped: false, found: 0, shortened: 0, limit };
  try {
    if (validate === undefined || validate(data)) return empty;
  } catch (error) {
    if (error instanceof ListingStopped) return { ...empty, complete: false, stopped: true };
    throw error;
  }
  const errors = validate.errors ?? [];
  return { ...boundIssues(lazyIssues(errors)), stopped: false, found: errors.length, limit };
}

/** Ajv's errors as issues, converted only as far as they are read. */
function* lazyIssues(errors: readonly AjvErrorObject[]): Generator<ValidationIssue> {
  for (const e of errors) yield toIssue(e);
}

/** The first issue the fast validator reported. */
export function firstIssues(validate: CompiledValidator): ValidationIssue[] {
  return (validate.errors ?? []).map(toIssue);
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
