/**
 * Which requests to sign, from the seller's `request_signing` capability (get_adcp_capabilities;
 * security.mdx, "Signed Requests"): the operations and JSON-RPC methods it requires signed, and,
 * when the caller asks, those it verifies when present; whether to cover `content-digest`
 * (`covers_content_digest`: `forbidden` means never, otherwise always, as 3.2 signers do).
 */
import { DecodeError, describeThrown, describeValue } from '../../errors/errors.js';
import { knownOptions } from '../../errors/option-rules.js';
import { isObject, own } from '../../json/own.js';
import type { Invocation } from './invocation.js';

/** The seller's `request_signing` capability, as get_adcp_capabilities answers it (3.0 and 3.1). */
export interface RequestSigningCapability {
  readonly supported: boolean;
  readonly covers_content_digest?: 'required' | 'forbidden' | 'either' | undefined;
  readonly required_for?: readonly string[] | undefined;
  readonly warn_for?: readonly string[] | undefined;
  readonly supported_for?: readonly string[] | undefined;
  readonly protocol_methods_required_for?: readonly string[] | undefined;
  readonly protocol_methods_warn_for?: readonly string[] | undefined;
  readonly protocol_methods_supported_for?: readonly string[] | undefined;
}

/** What to sign: withRequestSigning's third argument. */
export interface SigningPolicyOptions {
  /**
   * The seller's get_adcp_capabilities answer (what decode or callTask returned), or its
   * `request_signing` member. An answer without `request_signing`, or with `supported: false`,
   * asks for no signature: nothing is signed.
   */
  readonly capabilities: { readonly request_signing?: RequestSigningCapability | undefined } | RequestSigningCapability;
  /**
   * `'required'` (default): sign the operations in `required_for` and the methods in
   * `protocol_methods_required_for`. `'supported'`: also those the seller verifies when present
   * (`supported_for`, `warn_for` and their `protocol_methods_*`), as the spec says a buyer SHOULD.
   */
  readonly sign?: 'required' | 'supported' | undefined;
}

/** Every option withRequestSigning takes, by name (a type test holds it to `keyof SigningPolicyOptions`). */
export const SIGNING_POLICY_OPTION_KEYS = ['capabilities', 'sign'] as const satisfies readonly (keyof SigningPolicyOptions)[];

/** The decision for one request. */
export interface SigningDecision {
  readonly sign: boolean;
  /** Whether the signature covers `content-digest` (a request with a body). */
  readonly coverContentDigest: boolean;
}

/** The policy read once: the names to sign, by namespace, and the digest rule. */
export interface SigningPolicy {
  decide(invocations: readonly Invocation[]): SigningDecision;
}

const LISTS = {
  required: { operation: ['required_for'], method: ['protocol_methods_required_for'] },
  supported: {
    operation: ['required_for', 'warn_for', 'supported_for'],
    method: ['protocol_methods_required_for', 'protocol_methods_warn_for', 'protocol_methods_supported_for'],
  },
} as const;

function invalid(name: string, expected: string, got: unknown): DecodeError {
  return new DecodeError('INVALID_OPTION', `withRequestSigning: option ${name} must be ${expected}; got ${describeValue(got)}`);
}

/** One list of the capability: absent, or an array of strings. */
function names(capability: Record<string, unknown>, field: string): readonly string[] {
  const value = own(capability, field);
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string'))
    throw invalid(`capabilities.request_signing.${field}`, 'an array of names', value);
  return value;
}

/** The capability member of what was given: the whole answer's `request_signing`, or the member itself. */
function capabilityOf(given: unknown): Record<string, unknown> | undefined {
  if (!isObject(given)) throw invalid('capabilities', "the seller's get_adcp_capabilities answer or its request_signing", given);
  const member = own(given, 'supported') !== undefined ? given : own(given, 'request_signing');
  if (member === undefined) return undefined;
  if (!isObject(member) || typeof own(member, 'supported') !== 'boolean')
    throw invalid('capabilities.request_signing', 'an object with a boolean supported', member);
  return member;
}

/**
 * Reads the policy once.
 *
 * @param options - The capabilities and how much to sign.
 * @returns The policy.
 * @throws {DecodeError} `INVALID_OPTION` for capabilities that are not a `request_signing` (lists of names, a digest rule of the schema's), or a name that is not an option.
 * @example
 * signingPolicy({ capabilities: await callTask(client, 'get_adcp_capabilities', {}) }).decide(invocationsOf(body));
 */
export function signingPolicy(options: SigningPolicyOptions): SigningPolicy {
  try {
    knownOptions('withRequestSigning', options, SIGNING_POLICY_OPTION_KEYS);
    const { capabilities, sign = 'required' } = options;
    if (sign !== 'required' && sign !== 'supported') throw invalid('sign', "'required' or 'supported'", sign);
    const capability = capabilityOf(capabilities);
    const digest = capability === undefined ? undefined : own(capability, 'covers_content_digest');
    if (digest !== undefined && digest !== 'required' && digest !== 'forbidden' && digest !== 'either')
      throw invalid('capabilities.request_signing.covers_content_digest', "'required', 'forbidden' or 'either'", digest);
    const active = capability !== undefined && own(capability, 'supported') === true;
    const lists = LISTS[sign];
    const listed = {
      operation: new Set(active ? lists.operation.flatMap((f) => names(capability, f)) : []),
      method: new Set(active ? lists.method.flatMap((f) => names(capability, f)) : []),
    };
    const coverContentDigest = digest !== 'forbidden';
    return { decide: (invocations) => ({ sign: invocations.some((i) => listed[i.kind].has(i.name)), coverContentDigest }) };
  } catch (cause) {
    if (cause instanceof DecodeError) throw cause;
    throw new DecodeError('INVALID_OPTION', `withRequestSigning: the options could not be read: ${describeThrown(cause)} thrown`, {
      cause,
    });
  }
}
