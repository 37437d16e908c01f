/**
 * Arms that discriminate: for every task whose response schema is a `oneOf` of arms, in every
 * bundled version, the final response narrows with `isFinal` and the natural
 * `errors !== undefined` check (or the arm's own discriminant), and a required field of the
 * success arm is then typed, with no cast. Checked by tsc (vitest typecheck, part of npm test);
 * test/decode/arms.test.ts fails when a oneOf task has no entry here.
 */
import { expectTypeOf } from 'vitest';
import { isFinal } from '../../src/index.js';
import type { Response as Response31, TaskName as TaskName31 } from '../../src/generated/v3_1_19/pinned.js';
import type { Response as Response30, TaskName as TaskName30 } from '../../src/generated/v3_0_26/pinned.js';

type Pinned31 = { [T in TaskName31]: Response31<T> };
type Pinned30 = { [T in TaskName30]: Response30<T> };
/** One check per oneOf task: its parameter is the task's decoded response. */
type Checks<R> = { readonly [T in keyof R]?: (response: R[T]) => void };

const v31: Checks<Pinned31> = {
  acquire_rights: (r) => {
    if (!isFinal(r)) return;
    if (r.errors !== undefined) expectTypeOf(r.errors[0].code).toEqualTypeOf<string>();
    else expectTypeOf(r.rights_id).not.toBeUnknown();
  },
  activate_signal: (r) => {
    if (!isFinal(r)) return;
    if (r.errors !== undefined) expectTypeOf(r.errors[0].code).toEqualTypeOf<string>();
    else expectTypeOf(r.deployments).not.toBeUnknown();
  },
  build_creative: (r) => {
    if (!isFinal(r)) return;
    // The success arms declare nothing that tells them apart (nor, in 3.0, from the error arm).
    expectTypeOf(r.creative_manifest).toBeUnknown();
    if (!('errors' in r)) expectTypeOf(r.creative_manifest).toBeUnknown();
  },
  calibrate_content: (r) => {
    if (!isFinal(r)) return;
    // No \`not\` in the schema: \`errors !== undefined\` cannot tell the arms apart (the success arm may carry any key).
    expectTypeOf(r.verdict).toBeUnknown();
    if (!('errors' in r)) expectTypeOf(r.verdict).not.toBeUnknown();
  },
  comply_test_controller: (r) => {
    if (!isFinal(r)) return;
    if (r.success === false) expectTypeOf(r.error).not.toBeUnknown();
    else if (r.scenarios !== undefined) expectTypeOf(r.scenarios).not.toBeUnknown();
    else if (r.forced !== undefined) expectTypeOf(r.forced).not.toBeUnknown();
  },
  create_content_standards: (r) => {
    if (!isFinal(r)) return;
    // No \`not\` in the schema: \`errors !== undefined\` cannot tell the arms apart (the success arm may carry any key).
    expectTypeOf(r.standards_id).toBeUnknown();
    if (!('errors' in r)) expectTypeOf(r.standards_id).not.toBeUnknown();
  },
  create_media_buy: (r) => {
    if (!isFinal(r)) return;
    if (r.errors !== undefined) expectTypeOf(r.errors[0].code).toEqualTypeOf<string>();
    else expectTypeOf(r.media_buy_id).not.toBeUnknown();
  },
  creative_approval: (r) => {
    if (!isFinal(r)) return;
    if (r.errors !== undefined) expectTypeOf(r.errors[0].code).toEqualTypeOf<string>();
    else expectTypeOf(r.approval_status).not.toBeUnknown();
  },
  get_account_financials: (r) => {
    if (!isFinal(r)) return;
    if (r.errors !== undefined) expectTypeOf(r.errors[0].code).toEqualTypeOf<string>();
    else expectTypeOf(r.account).not.toBeUnknown();
  },
  get_brand_identity: (r) => {
    if (!isFinal(r)) return;
    if (r.errors !== undefined) expectTypeOf(r.errors[0].code).toEqualTypeOf<string>();
    else expectTypeOf(r.brand_id).not.toBeUnknown();
  },
  get_content_standards: (r) => {
    if (!isFinal(r)) return;
    // No \`not\` in the schema: \`errors !== undefined\` cannot tell the arms apart (the success arm may carry any key).
    expectTypeOf(r.standards_id).toBeUnknown();
    if (!('errors' in r)) expectTypeOf(r.standards_id).not.toBeUnknown();
  },
  get_creative_features: (r) => {
    if (!isFinal(r)) return;
    // No \`not\` in the schema: \`errors !== undefined\` cannot tell the arms apart (the success arm may carry any key).
    expectTypeOf(r.results).toBeUnknown();
    if (!('errors' in r)) expectTypeOf(r.results).not.toBeUnknown();
  },
  get_media_buy_artifacts: (r) => {
    if (!isFinal(r)) return;
    // No \`not\` in the schema: \`errors !== undefined\` cannot tell the arms apart (the success arm may carry any key).
    expectTypeOf(r.media_buy_id).toBeUnknown();
    if (!('errors' in r)) expectTypeOf(r.media_buy_id).not.toBeUnknown();
  },
  get_rights: (r) => {
    if (!isFinal(r)) return;
    if (r.errors !== undefined) expectTypeOf(r.errors[0].code).toEqualTypeOf<string>();
    else expectTypeOf(r.rights).not.toBeUnknown();
  },
  list_content_standards: (r) => {
    if (!isFinal(r)) return;
    // No \`not\` in the schema: \`errors !== undefined\` cannot tell the arms apart (the success arm may carry any key).
    expectTypeOf(r.standards).toBeUnknown();
    if (!('errors' in r)) expectTypeOf(r.standards).not.toBeUnknown();
  },
  log_event: (r) => {
    if (!isFinal(r)) return;
    if (r.errors !== undefined) expectTypeOf(r.errors[0].code).toEqualTypeOf<string>();
    else expectTypeOf(r.events_received).not.toBeUnknown();
  },
  preview_creative: (r) => {
    if (!isFinal(r)) return;
    if (r.response_type === 'single') expectTypeOf(r.previews).not.toBeUnknown();
    else if (r.response_type === 'batch') expectTypeOf(r.results).not.toBeUnknown();
    else expectTypeOf(r.variant_id).toEqualTypeOf<string>();
  },
  provide_performance_feedback: (r) => {
    if (!isFinal(r)) return;
    if (r.errors !== undefined) expectTypeOf(r.errors[0].code).toEqualTypeOf<string>();
    else expectTypeOf(r.success).not.toBeUnknown();
  },
  search_brands: (r) => {
    if (!isFinal(r)) return;
    if (r.errors !== undefined) expectTypeOf(r.errors[0].code).toEqualTypeOf<string>();
    else expectTypeOf(r.brands).not.toBeUnknown();
  },
  sync_accounts: (r) => {
    if (!isFinal(r)) return;
    if (r.errors !== undefined) expectTypeOf(r.errors[0].code).toEqualTypeOf<string>();
    else expectTypeOf(r.accounts).not.toBeUnknown();
  },
  sync_audiences: (r) => {
    if (!isFinal(r)) return;
    if (r.errors !== undefined) expectTypeOf(r.errors[0].code).toEqualTypeOf<string>();
    else expectTypeOf(r.audiences).not.toBeUnknown();
  },
  sync_catalogs: (r) => {
    if (!isFinal(r)) return;
    if (r.errors !== undefined) expectTypeOf(r.errors[0].code).toEqualTypeOf<string>();
    else expectTypeOf(r.catalogs).not.toBeUnknown();
  },
  sync_creatives: (r) => {
    if (!isFinal(r)) return;
    if (r.errors !== undefined) expectTypeOf(r.errors[0].code).toEqualTypeOf<string>();
    else expectTypeOf(r.creatives).not.toBeUnknown();
  },
  sync_event_sources: (r) => {
    if (!isFinal(r)) return;
    if (r.errors !== undefined) expectTypeOf(r.errors[0].code).toEqualTypeOf<string>();
    else expectTypeOf(r.event_sources).not.toBeUnknown();
  },
  sync_governance: (r) => {
    if (!isFinal(r)) return;
    if (r.errors !== undefined) expectTypeOf(r.errors[0].code).toEqualTypeOf<string>();
    else expectTypeOf(r.accounts).not.toBeUnknown();
  },
  update_content_standards: (r) => {
    if (!isFinal(r)) return;
    if (r.success === false) expectTypeOf(r.errors).not.toBeUnknown();
    else expectTypeOf(r.standards_id).toEqualTypeOf<string>();
  },
  update_media_buy: (r) => {
    if (!isFinal(r)) return;
    if (r.errors !== undefined) expectTypeOf(r.errors[0].code).toEqualTypeOf<string>();
    else expectTypeOf(r.media_buy_id).not.toBeUnknown();
  },
  update_rights: (r) => {
    if (!isFinal(r)) return;
    if (r.errors !== undefined) expectTypeOf(r.errors[0].code).toEqualTypeOf<string>();
    else expectTypeOf(r.rights_id).not.toBeUnknown();
  },
  validate_content_delivery: (r) => {
    if (!isFinal(r)) return;
    // No \`not\` in the schema: \`errors !== undefined\` cannot tell the arms apart (the success arm may carry any key).
    expectTypeOf(r.summary).toBeUnknown();
    if (!('errors' in r)) expectTypeOf(r.summary).not.toBeUnknown();
  },
  verify_brand_claim: (r) => {
    if (!isFinal(r)) return;
    if (r.errors !== undefined) expectTypeOf(r.errors[0].code).toEqualTypeOf<string>();
    else expectTypeOf(r.claim_type).not.toBeUnknown();
  },
  verify_brand_claims: (r) => {
    if (!isFinal(r)) return;
    if (r.errors !== undefined) expectTypeOf(r.errors[0].code).toEqualTypeOf<string>();
    else expectTypeOf(r.results).not.toBeUnknown();
  },
};

const v30: Checks<Pinned30> = {
  acquire_rights: (r) => {
    if (!isFinal(r)) return;
    if (r.errors !== undefined) expectTypeOf(r.errors[0].code).toEqualTypeOf<string>();
    else expectTypeOf(r.rights_id).not.toBeUnknown();
  },
  activate_signal: (r) => {
    if (!isFinal(r)) return;
    if (r.errors !== undefined) expectTypeOf(r.errors[0].code).toEqualTypeOf<string>();
    else expectTypeOf(r.deployments).not.toBeUnknown();
  },
  build_creative: (r) => {
    if (!isFinal(r)) return;
    // The success arms declare nothing that tells them apart (nor, in 3.0, from the error arm).
    expectTypeOf(r.creative_manifest).toBeUnknown();
    if (!('errors' in r)) expectTypeOf(r.creative_manifest).toBeUnknown();
  },
  calibrate_content: (r) => {
    if (!isFinal(r)) return;
    // No \`not\` in the schema: \`errors !== undefined\` cannot tell the arms apart (the success arm may carry any key).
    expectTypeOf(r.verdict).toBeUnknown();
    if (!('errors' in r)) expectTypeOf(r.verdict).not.toBeUnknown();
  },
  comply_test_controller: (r) => {
    if (!isFinal(r)) return;
    if (r.success === false) expectTypeOf(r.error).not.toBeUnknown();
    else if (r.scenarios !== undefined) expectTypeOf(r.scenarios).not.toBeUnknown();
    else if (r.forced !== undefined) expectTypeOf(r.forced).not.toBeUnknown();
  },
  create_content_standards: (r) => {
    if (!isFinal(r)) return;
    // No \`not\` in the schema: \`errors !== undefined\` cannot tell the arms apart (the success arm may carry any key).
    expectTypeOf(r.standards_id).toBeUnknown();
    if (!('errors' in r)) expectTypeOf(r.standards_id).not.toBeUnknown();
  },
  create_media_buy: (r) => {
    if (!isFinal(r)) return;
    if (r.errors !== undefined) expectTypeOf(r.errors[0].code).toEqualTypeOf<string>();
    else expectTypeOf(r.media_buy_id).not.toBeUnknown();
  },
  creative_approval: (r) => {
    if (!isFinal(r)) return;
    if (r.errors !== undefined) expectTypeOf(r.errors[0].code).toEqualTypeOf<string>();
    else expectTypeOf(r.status).not.toBeUnknown();
  },
  get_account_financials: (r) => {
    if (!isFinal(r)) return;
    if (r.errors !== undefined) expectTypeOf(r.errors[0].code).toEqualTypeOf<string>();
    else expectTypeOf(r.account).not.toBeUnknown();
  },
  get_brand_identity: (r) => {
    if (!isFinal(r)) return;
    if (r.errors !== undefined) expectTypeOf(r.errors[0].code).toEqualTypeOf<string>();
    else expectTypeOf(r.brand_id).not.toBeUnknown();
  },
  get_content_standards: (r) => {
    if (!isFinal(r)) return;
    // No \`not\` in the schema: \`errors !== undefined\` cannot tell the arms apart (the success arm may carry any key).
    expectTypeOf(r.standards_id).toBeUnknown();
    if (!('errors' in r)) expectTypeOf(r.standards_id).not.toBeUnknown();
  },
  get_creative_features: (r) => {
    if (!isFinal(r)) return;
    // No \`not\` in the schema: \`errors !== undefined\` cannot tell the arms apart (the success arm may carry any key).
    expectTypeOf(r.results).toBeUnknown();
    if (!('errors' in r)) expectTypeOf(r.results).not.toBeUnknown();
  },
  get_media_buy_artifacts: (r) => {
    if (!isFinal(r)) return;
    // No \`not\` in the schema: \`errors !== undefined\` cannot tell the arms apart (the success arm may carry any key).
    expectTypeOf(r.media_buy_id).toBeUnknown();
    if (!('errors' in r)) expectTypeOf(r.media_buy_id).not.toBeUnknown();
  },
  get_rights: (r) => {
    if (!isFinal(r)) return;
    if (r.errors !== undefined) expectTypeOf(r.errors[0].code).toEqualTypeOf<string>();
    else expectTypeOf(r.rights).not.toBeUnknown();
  },
  list_content_standards: (r) => {
    if (!isFinal(r)) return;
    // No \`not\` in the schema: \`errors !== undefined\` cannot tell the arms apart (the success arm may carry any key).
    expectTypeOf(r.standards).toBeUnknown();
    if (!('errors' in r)) expectTypeOf(r.standards).not.toBeUnknown();
  },
  log_event: (r) => {
    if (!isFinal(r)) return;
    if (r.errors !== undefined) expectTypeOf(r.errors[0].code).toEqualTypeOf<string>();
    else expectTypeOf(r.events_received).not.toBeUnknown();
  },
  preview_creative: (r) => {
    if (!isFinal(r)) return;
    if (r.response_type === 'single') expectTypeOf(r.previews).not.toBeUnknown();
    else if (r.response_type === 'batch') expectTypeOf(r.results).not.toBeUnknown();
    else expectTypeOf(r.variant_id).toEqualTypeOf<string>();
  },
  provide_performance_feedback: (r) => {
    if (!isFinal(r)) return;
    if (r.errors !== undefined) expectTypeOf(r.errors[0].code).toEqualTypeOf<string>();
    else expectTypeOf(r.success).not.toBeUnknown();
  },
  sync_accounts: (r) => {
    if (!isFinal(r)) return;
    if (r.errors !== undefined) expectTypeOf(r.errors[0].code).toEqualTypeOf<string>();
    else expectTypeOf(r.accounts).not.toBeUnknown();
  },
  sync_audiences: (r) => {
    if (!isFinal(r)) return;
    if (r.errors !== undefined) expectTypeOf(r.errors[0].code).toEqualTypeOf<string>();
    else expectTypeOf(r.audiences).not.toBeUnknown();
  },
  sync_catalogs: (r) => {
    if (!isFinal(r)) return;
    if (r.errors !== undefined) expectTypeOf(r.errors[0].code).toEqualTypeOf<string>();
    else expectTypeOf(r.catalogs).not.toBeUnknown();
  },
  sync_creatives: (r) => {
    if (!isFinal(r)) return;
    if (r.errors !== undefined) expectTypeOf(r.errors[0].code).toEqualTypeOf<string>();
    else expectTypeOf(r.creatives).not.toBeUnknown();
  },
  sync_event_sources: (r) => {
    if (!isFinal(r)) return;
    if (r.errors !== undefined) expectTypeOf(r.errors[0].code).toEqualTypeOf<string>();
    else expectTypeOf(r.event_sources).not.toBeUnknown();
  },
  sync_governance: (r) => {
    if (!isFinal(r)) return;
    if (r.errors !== undefined) expectTypeOf(r.errors[0].code).toEqualTypeOf<string>();
    else expectTypeOf(r.accounts).not.toBeUnknown();
  },
  update_content_standards: (r) => {
    if (!isFinal(r)) return;
    if (r.success === false) expectTypeOf(r.errors).not.toBeUnknown();
    else expectTypeOf(r.standards_id).toEqualTypeOf<string>();
  },
  update_media_buy: (r) => {
    if (!isFinal(r)) return;
    if (r.errors !== undefined) expectTypeOf(r.errors[0].code).toEqualTypeOf<string>();
    else expectTypeOf(r.media_buy_id).not.toBeUnknown();
  },
  update_rights: (r) => {
    if (!isFinal(r)) return;
    if (r.errors !== undefined) expectTypeOf(r.errors[0].code).toEqualTypeOf<string>();
    else expectTypeOf(r.rights_id).not.toBeUnknown();
  },
  validate_content_delivery: (r) => {
    if (!isFinal(r)) return;
    // No \`not\` in the schema: \`errors !== undefined\` cannot tell the arms apart (the success arm may carry any key).
    expectTypeOf(r.summary).toBeUnknown();
    if (!('errors' in r)) expectTypeOf(r.summary).not.toBeUnknown();
  },
};

/** The tasks checked above, per version (compared with the schemas by test/decode/arms.test.ts). */
export const checked: Readonly<Record<string, readonly string[]>> = { '3.1.19': Object.keys(v31), '3.0.26': Object.keys(v30) };
