/**
 * decoderFor(): a seller's decoder from its `get_adcp_capabilities` answer, so that the natural
 * flow (ask capabilities, then call) needs no hand-chosen pin. `version: 'auto'` can only read
 * the `adcp_version` an answer announces, and AdCP 3.0 answers announce none: auto then judges a
 * 3.0 seller by the default release (3.1.19), whose rules a valid 3.0 answer can break. The
 * capabilities answer says which releases the seller speaks; the decoder is pinned to the newest
 * one adcp-decode bundles too, and `release` is the stamp its requests carry.
 */
import { DecodeError, describeValue, NoCommonVersionError, SchemaMismatchError } from '../errors/errors.js';
import { shownText } from '../errors/format.js';
import { optionError } from '../errors/option-rules.js';
import { hasOwn, isObject, own } from '../json/own.js';
import type { CommonDecodeOptions } from '../options/options.js';
import { resolveDefaults } from '../options/resolve-options.js';
import { pinOf } from '../schema/release.js';
import { bundledEnd, releaseOf, tablesFor, type Version, versionForSeller, versions } from '../schema/versions.js';
import { decodeResolved, decoderOver } from './decode.js';
import type { Decoded, Decoder, Merged } from './types.js';

/** A seller's decoder, pinned to the release it and adcp-decode both speak. */
export interface SellerDecoder<B extends CommonDecodeOptions> extends Decoder<Merged<B, { readonly version: Version }>> {
  /** The bundled version every answer of this seller is judged by, e.g. `'3.0.26'`. */
  readonly version: Version;
  /** The release to stamp on requests (`adcp_version`), its wire pin: e.g. `'3.0'`, `'3.2-beta.6'`. */
  readonly release: string;
  /** Its major (`adcp_major_version`, which 3.x requests should carry too), e.g. `3`. */
  readonly majorVersion: number;
  /** What the seller listed: `adcp.supported_versions`, else `adcp.major_versions` as text. */
  readonly sellerVersions: readonly string[];
  /** The capabilities answer, decoded and typed; `undefined` when its schema refused it (see `check`). */
  readonly capabilities: Decoded<'get_adcp_capabilities'> | undefined;
  /**
   * The full schema check of the capabilities answer, beside the decoder: negotiation reads only
   * the version members (`adcp.major_versions`, `adcp.supported_versions`), so an answer its
   * schema refuses elsewhere still gets its decoder, and the refusal is here.
   */
  readonly check: CapabilitiesCheck;
}

/** How the capabilities answer fared against its schema: valid (`patch`: the earlier GA patch that accepted it, as for safeDecode), or the refusal. */
export type CapabilitiesCheck =
  | { readonly valid: true; readonly patch?: string }
  | { readonly valid: false; readonly error: SchemaMismatchError };

/** A release-precision version, as capabilities list them (version-envelope.json's pattern). */
const RELEASE = /^\d+\.\d+(-[a-zA-Z0-9.-]+)?$/;

/**
 * `adcp.supported_versions` as listed, checked where the judging schema did not (3.0 does not
 * define it): an array of release-precision strings, else SCHEMA_MISMATCH at its pointer.
 */
function supportedVersions(adcp: Record<string, unknown>, version: Version): string[] | undefined {
  if (!hasOwn(adcp, 'supported_versions')) return undefined;
  const listed = adcp.supported_versions;
  if (Array.isArray(listed) && listed.length > 0 && listed.every((v) => typeof v === 'string' && RELEASE.test(v))) return listed;
  const newest = bundledEnd('newest');
  const schemaId = tablesFor(newest).schemaIds.get_adcp_capabilities?.response ?? '';
  throw new SchemaMismatchError(
    `get_adcp_capabilities response's adcp.supported_versions must be a non-empty array of release-precision versions ("3.1"); got ${describeValue(listed)} (judged by ${version}, which does not define it, and ${newest}'s rule)`,
    {
      schemaId,
      issues: [
        {
          path: '/adcp/supported_versions',
          keyword: 'type',
          params: { type: 'array' },
          schemaPath: `${schemaId}#/properties/adcp/properties/supported_versions`,
          message: 'must be a non-empty array of release-precision versions',
        },
      ],
    },
    { task: 'get_adcp_capabilities', version },
  );
}

/**
 * Decodes a seller's `get_adcp_capabilities` answer and returns a decoder pinned to the newest release both it and adcp-decode speak.
 * How the release is chosen and the answer judged: docs/versions.md, "What `version: 'auto'` can and cannot tell".
 *
 * @param capabilities - The seller's answer to `get_adcp_capabilities`, as for decode().
 * @param options - The decoder's options (bounds, transport, unknownRecovery); not `version`, which
 *   the answer decides, nor `request`, which is per call.
 * @returns The seller's decoder, with the version, release and capabilities it was derived from,
 *   and `check`, the full schema check of the answer (a refusal there does not withhold the decoder).
 * @throws {NoCommonVersionError} `NO_COMMON_VERSION` when the seller lists no bundled release.
 * @throws {DecodeError} As decode() throws for the capabilities answer, but a schema refusal
 *   elsewhere than the version members (that one is `check`); `INVALID_OPTION` for a
 *   `version` option or an invalid one.
 * @example
 * const seller = decoderFor(await client.callTool({ name: 'get_adcp_capabilities', arguments: {} }));
 * const products = seller.decode('get_products', await client.callTool({ name: 'get_products', arguments: { adcp_version: seller.release, brief } }));
 */
export function decoderFor(capabilities: unknown, options?: CommonDecodeOptions): SellerDecoder<CommonDecodeOptions> {
  const owner = { who: 'decoderFor', context: { task: 'get_adcp_capabilities' } };
  // Every option checked here, request refused as a default; `version` is the answer's to decide.
  const defaults = resolveDefaults(options, owner);
  if (defaults.version !== 'auto')
    throw optionError(owner.who, 'version', "left out: decoderFor pins the version the seller's capabilities allow", defaults.version);
  // An answer announcing no adcp_version is a 3.0 seller's (versioning.mdx): the oldest bundled release judges it.
  // A schema refusal is kept: negotiation reads the version members only (3.0.26 requires what 3.0.6 did not).
  const how = { unannounced: bundledEnd('oldest'), keepMismatch: true };
  const outcome = decodeResolved('get_adcp_capabilities', capabilities, defaults, how);
  if (outcome instanceof DecodeError) throw outcome;
  const { data, mismatch } = outcome;
  const adcp = own(data, 'adcp');
  const majors = isObject(adcp) ? own(adcp, 'major_versions') : undefined;
  // The members negotiation needs are unusable: the schema's refusal is the error (without one, the schema checked them).
  if (!isObject(adcp) || !isMajorList(majors) || mismatch?.issues.some(atVersionMember) === true)
    throw (
      mismatch ??
      new DecodeError(
        'INTERNAL',
        `adcp-decode's capabilities schema passed an answer without adcp.major_versions: a defect in adcp-decode`,
        {
          task: 'get_adcp_capabilities',
          version: outcome.version,
        },
      )
    );
  const listed = supportedVersions(adcp, outcome.version);
  // 3.1 declares the envelope's adcp_version and 3.0 does not, so no one arm types it: read it as unknown.
  const stamped = own(data, 'adcp_version');
  const announced = typeof stamped === 'string' ? stamped : undefined;
  const version = versionForSeller({ supportedVersions: listed, majorVersions: majors, announced });
  const sellerVersions = (listed ?? majors.map(String)).slice(0, 32).map((v) => shownText(v, 32));
  if (version === undefined) {
    const bundledReleases = versions.map(releaseOf);
    throw new NoCommonVersionError(
      `the seller speaks AdCP ${sellerVersions.join(', ')}${listed === undefined ? ' (majors)' : ''}; adcp-decode bundles ${bundledReleases.join(', ')}: no release in common`,
      { sellerVersions, bundledReleases },
      { task: 'get_adcp_capabilities', version: outcome.version },
    );
  }
  const decoder = decoderOver<Merged<CommonDecodeOptions, { readonly version: Version }>>({ ...defaults, version });
  return {
    ...decoder,
    version,
    release: pinOf(version),
    majorVersion: Number(version.split('.')[0]),
    sellerVersions,
    capabilities: mismatch === undefined ? data : undefined,
    check:
      mismatch !== undefined
        ? { valid: false, error: mismatch }
        : outcome.patch === undefined
          ? { valid: true }
          : { valid: true, patch: outcome.patch },
  };
}

/** An issue of the members negotiation reads. */
function atVersionMember(issue: { readonly path: string }): boolean {
  return /^\/adcp\/(major_versions|supported_versions)(\/|$)/.test(issue.path);
}

/** `adcp.major_versions` as negotiation reads it: a non-empty array of positive integers. */
function isMajorList(value: unknown): value is readonly number[] {
  return Array.isArray(value) && value.length > 0 && value.every((m) => Number.isInteger(m) && (m as number) >= 1);
}
