/**
 * Arms that discriminate: for every task whose response schema is a `oneOf` of arms, in every
 * bundled version, the final response splits into its error arm and its success arms, and a
 * required field of the success arms is then typed, with no cast. Most tasks split on `errors`:
 * a table per version (task → success field) and one generic check state it once. Four
 * discriminate otherwise and are checked by hand. Checked by tsc (vitest typecheck, part of npm
 * test); test/decode/arms.test.ts fails when a oneOf task has no entry here.
 */
import { expectTypeOf } from 'vitest';
import type { Response as Response30, TaskName as TaskName30 } from '../../src/generated/v3_0/pinned.js';
import type { Response as Response31, TaskName as TaskName31 } from '../../src/generated/v3_1/pinned.js';
import { type Final, isFinal } from '../../src/index.js';
import { V3_0, V3_1 } from '../fixtures/versions.js';

type Pinned31 = { [T in TaskName31]: Response31<T> };
type Pinned30 = { [T in TaskName30]: Response30<T> };

// --- The tasks that split on `errors` -----------------------------------------------------------

/** The arms that report a failure (`errors` required), and the others. */
type ErrorArms<U> = Extract<U, { errors: readonly unknown[] }>;
type SuccessArms<U> = Exclude<U, { errors: unknown }>;
/** `A[K]` for each arm, `never` where an arm does not declare `K`. */
type Member<A, K extends PropertyKey> = A extends unknown ? (K extends keyof A ? A[K] : never) : never;
type Equal<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;

/**
 * How a buyer tells the arms apart. `errors`: every success arm forbids `errors` (`errors?: never`),
 * so `r.errors !== undefined` narrows to the error arm and its `else` to the success arms. `in`:
 * the schema has no `not`, a success arm may carry an `errors` of any shape, so `r.errors` is
 * `unknown` and only `!('errors' in r)` narrows, to the success arms.
 */
type Split = 'errors' | 'in';

/** What the split `S` needs of the final arms `U`: `never` when it holds, else what is wrong. */
type Splits<U, S extends Split> = S extends 'errors'
  ? 'errors' extends keyof U
    ? [Exclude<Member<SuccessArms<U>, 'errors'>, undefined>] extends [never]
      ? never
      : 'a success arm may carry errors, so errors !== undefined does not narrow'
    : 'r.errors does not compile'
  : [Exclude<Member<SuccessArms<U>, 'errors'>, undefined>] extends [never]
    ? 'every success arm forbids errors: the task splits on errors !== undefined'
    : never;

/** What is wrong with the task's final arms `U` (success field `F`, split `S`), or `never`. */
type Problem<U, F extends string, S extends Split> = [ErrorArms<U>] extends [never]
  ? 'no error arm'
  : Equal<Member<ErrorArms<U>['errors'][number], 'code'>, string> extends false
    ? 'errors[].code is not a string'
    : [SuccessArms<U>] extends [never]
      ? 'no success arm'
      : [SuccessArms<U>] extends [{ [K in F]: unknown }]
        ? unknown extends SuccessArms<U>[F]
          ? `${F} is untyped in a success arm`
          : Splits<U, S>
        : `${F} is not required in every success arm`;

/**
 * The final arms but a `submitted` acknowledgement, which some 3.1 schemas keep among the final
 * arms (where the task has no async `submitted` schema); `status === 'submitted'` tells it apart
 */
type Settled<R> = Final<R> extends infer U ? (U extends unknown ? (Acknowledges<U> extends true ? never : U) : never) : never;
type Acknowledges<A> = [Exclude<Member<A, 'status'>, undefined>] extends [never]
  ? false
  : [Exclude<Member<A, 'status'>, undefined>] extends ['submitted']
    ? true
    : false;

/** Each task of `Table` whose settled final arms in `R` fail the check, with what is wrong. */
type Problems<R, Table, S extends Split> = {
  [T in keyof Table & keyof R & string]: Problem<Settled<R[T]>, Table[T] & string, S> extends infer P extends string
    ? [P] extends [never]
      ? never
      : `${T}: ${P}`
    : never;
}[keyof Table & keyof R & string];

/** The tasks whose success arms forbid `errors`, and a field every success arm requires. */
const byErrors30 = {
  acquire_rights: 'rights_id',
  activate_signal: 'deployments',
  create_media_buy: 'media_buy_id',
  creative_approval: 'rights_id',
  get_account_financials: 'account',
  get_brand_identity: 'brand_id',
  get_rights: 'rights',
  log_event: 'events_received',
  provide_performance_feedback: 'success',
  sync_accounts: 'accounts',
  sync_audiences: 'audiences',
  sync_catalogs: 'catalogs',
  sync_creatives: 'creatives',
  sync_event_sources: 'event_sources',
  sync_governance: 'accounts',
  update_media_buy: 'media_buy_id',
  update_rights: 'rights_id',
} as const satisfies Partial<Record<TaskName30, string>>;
const byErrors31 = {
  ...byErrors30,
  creative_approval: 'approval_status',
  search_brands: 'brands',
  verify_brand_claim: 'claim_type',
  verify_brand_claims: 'results',
} as const satisfies Partial<Record<TaskName31, string>>;

/** The tasks whose schema has no `not`: a success arm may carry `errors`. */
const byIn = {
  calibrate_content: 'verdict',
  create_content_standards: 'standards_id',
  get_content_standards: 'standards_id',
  get_creative_features: 'results',
  get_media_buy_artifacts: 'media_buy_id',
  list_content_standards: 'standards',
  validate_content_delivery: 'summary',
} as const satisfies Partial<Record<TaskName30 & TaskName31, string>>;

// Empty when every task passes; else tsc lists each failing task with what is wrong (the missing properties).
const problems: Record<
  | Problems<Pinned31, typeof byErrors31, 'errors'>
  | Problems<Pinned30, typeof byErrors30, 'errors'>
  | Problems<Pinned31, typeof byIn, 'in'>
  | Problems<Pinned30, typeof byIn, 'in'>,
  true
> = {};
expectTypeOf(problems).toEqualTypeOf<Record<never, true>>();

// The split the generic check describes is the one tsc's narrowing makes, as a buyer writes it.
// biome-ignore lint/correctness/noUnusedVariables: tsc checks its body; arms.test.ts imports this file, so nothing here may run.
function narrowing(buy: Response31<'create_media_buy'>, calibration: Response30<'calibrate_content'>): void {
  if (isFinal(buy)) {
    if (buy.errors !== undefined) expectTypeOf(buy).toEqualTypeOf<ErrorArms<Final<typeof buy>>>();
    else expectTypeOf(buy).toEqualTypeOf<SuccessArms<Final<typeof buy>>>();
  }
  if (isFinal(calibration)) {
    expectTypeOf(calibration.verdict).toBeUnknown();
    if (!('errors' in calibration)) expectTypeOf(calibration).toEqualTypeOf<SuccessArms<Final<typeof calibration>>>();
  }
}

// --- The tasks that discriminate otherwise --------------------------------------------------------

/** One check per task: its parameter is the task's decoded response. */
type Checks<R> = { readonly [T in keyof R]?: (response: R[T]) => void };

const others31: Checks<Pinned31> = {
  build_creative: (r) => {
    if (!isFinal(r)) return;
    // The success arms declare nothing that tells them apart.
    expectTypeOf(r.creative_manifest).toBeUnknown();
    if (!('errors' in r)) expectTypeOf(r.creative_manifest).toBeUnknown();
  },
  comply_test_controller: (r) => {
    if (!isFinal(r)) return;
    if (r.success === false) expectTypeOf(r.error).not.toBeUnknown();
    else if (r.scenarios !== undefined) expectTypeOf(r.scenarios).not.toBeUnknown();
    else if (r.forced !== undefined) expectTypeOf(r.forced).not.toBeUnknown();
  },
  preview_creative: (r) => {
    if (!isFinal(r)) return;
    if (r.response_type === 'single') expectTypeOf(r.previews).not.toBeUnknown();
    else if (r.response_type === 'batch') expectTypeOf(r.results).not.toBeUnknown();
    else expectTypeOf(r.variant_id).toEqualTypeOf<string>();
  },
  update_content_standards: (r) => {
    if (!isFinal(r)) return;
    if (r.success === false) expectTypeOf(r.errors).not.toBeUnknown();
    else expectTypeOf(r.standards_id).toEqualTypeOf<string>();
  },
};

const others30: Checks<Pinned30> = {
  build_creative: (r) => {
    if (!isFinal(r)) return;
    // The success arms declare nothing that tells them apart, nor from the error arm.
    expectTypeOf(r.creative_manifest).toBeUnknown();
    if (!('errors' in r)) expectTypeOf(r.creative_manifest).toBeUnknown();
  },
  comply_test_controller: (r) => {
    if (!isFinal(r)) return;
    if (r.success === false) expectTypeOf(r.error).not.toBeUnknown();
    else if (r.scenarios !== undefined) expectTypeOf(r.scenarios).not.toBeUnknown();
    else if (r.forced !== undefined) expectTypeOf(r.forced).not.toBeUnknown();
  },
  preview_creative: (r) => {
    if (!isFinal(r)) return;
    if (r.response_type === 'single') expectTypeOf(r.previews).not.toBeUnknown();
    else if (r.response_type === 'batch') expectTypeOf(r.results).not.toBeUnknown();
    else expectTypeOf(r.variant_id).toEqualTypeOf<string>();
  },
  update_content_standards: (r) => {
    if (!isFinal(r)) return;
    if (r.success === false) expectTypeOf(r.errors).not.toBeUnknown();
    else expectTypeOf(r.standards_id).toEqualTypeOf<string>();
  },
};

/** The tasks checked above, per version (compared with the schemas by test/decode/arms.test.ts). */
export const checked: Readonly<Record<string, readonly string[]>> = {
  [V3_1]: [...Object.keys(byErrors31), ...Object.keys(byIn), ...Object.keys(others31)],
  [V3_0]: [...Object.keys(byErrors30), ...Object.keys(byIn), ...Object.keys(others30)],
};
