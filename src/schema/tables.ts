/** The shape of the tables codegen writes per AdCP version (src/generated/<v>/index.ts). */

/** The response schema `$id`s of one task. */
export interface TaskSchemaIds {
  /** The synchronous (final) response schema. */
  readonly response: string;
  /** Async-variant schemas, by the `status` that selects them. */
  readonly async: { readonly working?: string; readonly submitted?: string; readonly 'input-required'?: string };
}

/** One AdCP version's tables, as generated from its manifest.json. */
export interface VersionTables<T extends string> {
  /** The pinned version, e.g. `3.1.19`. */
  readonly version: string;
  /** The task names, sorted. */
  readonly tasks: readonly T[];
  /** Response schema ids per task. */
  readonly schemaIds: Readonly<Record<T, TaskSchemaIds>>;
  /** Standard error code → recovery class (`transient`, `correctable`, `terminal`). */
  readonly errorCodes: Readonly<Record<string, string>>;
  /** The manifest's `error_code_policy.default_unknown_recovery`. */
  readonly defaultUnknownRecovery: string;
}

/** Which module of a task: the fast (first-error) validators or the error-listing ones. */
export type ValidatorKind = 'fast' | 'listing';

/** A version's generated import map: per task, an import of each of its two validator modules (a patch fallback's module: the fast one only). */
export type ValidatorImports = Readonly<
  Record<string, Readonly<{ fast: () => Promise<unknown>; listing?: (() => Promise<unknown>) | undefined }>>
>;

/** A validator of earlier GA patches of a bundled release: its module, and the patches whose schema it is, newest first. */
interface PatchJudge {
  readonly module: string;
  readonly patches: readonly string[];
}

/** A version's patch fallback: per task (or envelope module) and variant export key, the patch validators to try in order. */
export type PatchJudges = Readonly<Record<string, Readonly<Record<string, readonly PatchJudge[]>>>>;
