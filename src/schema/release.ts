/**
 * An AdCP release as data: what the generator writes for one release (from its schemas, a folder
 * or the spec's signed tarball), and what decode(), encode(), the polls and the webhook receiver
 * read of it. The bundled releases are such objects too; nothing at run time names 3.0 or 3.1.
 */
import type { PatchJudges, ValidatorImports, VersionTables } from './tables.js';

/** A version with its pre-release, e.g. `3.2.0-beta.6`. */
export const VERSION = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z][0-9A-Za-z.-]*)?$/;

/**
 * The wire pin of a version: release precision, a pre-release kept whole (versioning.mdx: a
 * pre-release pin matches exactly).
 *
 * @param version A version, e.g. `'3.2.0-beta.6'`.
 * @returns Its pin, e.g. `'3.2-beta.6'`; `'3.1'` for `'3.1.19'`.
 * @throws Never.
 * @example
 * pinOf('3.2.0-beta.6'); // '3.2-beta.6'
 */
export function pinOf(version: string): string {
  const match = VERSION.exec(version);
  if (match === null) return version.split('.').slice(0, 2).join('.');
  return `${match[1]}.${match[2]}${match[4] ?? ''}`;
}

/** The format of a release object this adcp-decode reads; a module of another format is regenerated, not guessed at. */
export const RELEASE_FORMAT = 1;

/** How a release's task-status poll is judged: a task of its own (`get_task_status`), or an envelope module (3.0's `tasks/get`). */
export type TaskStatusPoll =
  | { readonly method: string; readonly task: string }
  | {
      readonly method: string;
      readonly module: string;
      readonly request: { readonly schemaId: string; readonly stamps: readonly string[] };
    };

/** The protocol envelope facts of a release: what a webhook or a poll names, and how they are checked. */
export interface ReleaseEnvelope {
  /** `enums/task-type.json`: the task types a webhook envelope or a task status names. */
  readonly taskTypes: readonly string[];
  /** `enums/adcp-protocol.json`: the AdCP protocols. */
  readonly protocols: readonly string[];
  /** `core/mcp-webhook-payload.json` `required`. */
  readonly webhookRequired: readonly string[];
  /** The webhook envelope's validator module (its import map key). */
  readonly webhookEnvelope: string;
  /** How a task-status poll is judged. */
  readonly taskStatusPoll: TaskStatusPoll;
  /** The terminal statuses besides `completed` that end a task with its answer, not its failure (3.2's `rejected`). */
  readonly outcomeStatuses: readonly string[];
}

/** Per task: its request schema, the version fields encode() stamps, and its idempotency key. */
export interface RequestRow {
  readonly schemaId: string;
  readonly stamps: readonly string[];
  /** `required` where the schema requires an `idempotency_key`, `optional` where it only defines one. */
  readonly idempotencyKey?: 'required' | 'optional';
}

/** A tool's facts, as the release's manifest states them (3.2 adds most; absent where the manifest is silent). */
export interface ToolFacts {
  /** Whether the tool changes state (`mutating`). */
  readonly mutating?: boolean;
  /** `idempotency_requirement`: callers must, may, or cannot supply an `idempotency_key`. */
  readonly idempotencyRequirement?: 'required' | 'optional' | 'none';
  /** The release that added the tool, e.g. `'3.2.0'`. */
  readonly addedIn?: string;
  /** The release that deprecated it. */
  readonly deprecatedIn?: string;
  /** The tools that replace it (a deprecated facade), not necessarily one call each. */
  readonly supersededBy?: readonly string[];
  /**
   * How a caller may satisfy the tool against a seller that exposes only a legacy one: `direct`
   * (one translated call to `tool`), `orchestrated` (a sequence of `tool` calls), `none` (no faithful fallback).
   */
  readonly legacyFallback?: { readonly mode: 'direct' | 'orchestrated' | 'none'; readonly tool?: string };
  /** The protocol the tool belongs to (`media-buy`, `signals`, ...). */
  readonly protocol?: string;
}

/** Where a release's validator files are, for a runtime that loads them on first use (Node). */
export type ReleaseFiles =
  /** In this package, under `generated/<folder>/` (a bundled release). */
  | { readonly package: string }
  /** Beside a generated module: the module's own URL (`import.meta.url`), its files relative to it. */
  | { readonly module: string };

/** A task type's terminal result judged by a schema of its own: its validators' key and the schema's `$id`. */
export interface ResultJudge {
  /** The key of its validator module, e.g. `result-media_buy_delivery`. */
  readonly validators: string;
  readonly schema: string;
}

/**
 * One AdCP release, as data.
 *
 * @typeParam V - Its version, e.g. `'3.2.0-beta.6'`.
 */
export interface AdcpRelease<V extends string = string> {
  /** The format of this object ({@link RELEASE_FORMAT}). */
  readonly format: typeof RELEASE_FORMAT;
  /** The version, e.g. `'3.1.19'`, `'3.2.0-beta.6'`. */
  readonly version: V;
  /** Its wire pin, release precision: `'3.1'`, `'3.2-beta.6'` (a pre-release is pinned exactly). */
  readonly release: string;
  /** What wrote it, e.g. `'adcp-decode 0.1.0'`. */
  readonly generator: string;
  /** The SHA-256 of what it was generated from (the tarball, or the sorted file list of a folder), hex. */
  readonly sourceSha256: string;
  /** Tasks, their response schemas, error codes and the unknown-code policy. */
  readonly tables: VersionTables<string>;
  readonly envelope: ReleaseEnvelope;
  /** Per task: the request schema and what encode() stamps. */
  readonly requests: Readonly<Record<string, RequestRow>>;
  /** Per tool: what its manifest says of it (mutating, idempotency, lifecycle). */
  readonly tools: Readonly<Record<string, ToolFacts>>;
  /**
   * Which validator judges a terminal result of a task type (a webhook's or a poll's `result`),
   * where it is not the task type's own tool's response: the key of a validator module of its own
   * (3.2's `task_result_resolution.terminal_schema_overrides`; 3.1's `media_buy_delivery`, which its
   * task-type enum gives media-buy-delivery-webhook-result.json). A task type not listed is judged by its tool.
   */
  readonly results: Readonly<Record<string, ResultJudge>>;
  /** The validators of its earlier GA patches that differ (empty without a patch history). */
  readonly patches: PatchJudges;
  /** Where its validator files are, for loading on first use. */
  readonly files: ReleaseFiles;
  /** Its validator import map, for preload(); a bundled release's lives apart, so a bundle of one release holds no other's. */
  readonly validators?: ValidatorImports | undefined;
}
