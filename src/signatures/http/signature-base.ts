/**
 * The RFC 9421 §2.5 signature base of a request: one line per covered component, then
 * `@signature-params`, with `@target-uri` and `@authority` canonicalized per the AdCP profile.
 * Shared by every profile and by signers (who build the same base to sign): the refusal is a
 * SignatureBaseError, which each verifier reports under its own code.
 */

import { shownText } from '../../errors/format.js';
import type { CanonicalTarget } from './target-uri.js';

/** What the base is built from: the covered components and the serialized `@signature-params`. */
export interface SignatureInput {
  readonly components: readonly string[];
  readonly paramsValue: string;
}

/**
 * Why no base could be built: a covered header the request lacks, a derived component the
 * profile does not sign, or a header value holding a line break.
 */
export class SignatureBaseError extends Error {
  override readonly name = 'SignatureBaseError';
  readonly reason: 'header-absent' | 'component-unsupported' | 'line-break';
  constructor(reason: SignatureBaseError['reason'], message: string) {
    super(message);
    this.reason = reason;
  }
}

/** What the signature base reads from the request. */
export interface SignedRequestView {
  readonly method: string;
  readonly target: CanonicalTarget;
  /** Header values by lowercase name (repeated fields already joined with `, `). */
  readonly headers: ReadonlyMap<string, string>;
}

/** Derived components the profile's base can carry. */
function derived(name: string, request: SignedRequestView): string | undefined {
  const { targetUri, authority } = request.target;
  switch (name) {
    case '@method':
      return request.method.toUpperCase();
    case '@target-uri':
      return targetUri;
    case '@authority':
      return authority;
    case '@scheme':
      return targetUri.slice(0, targetUri.indexOf(':'));
    case '@path': {
      const rest = targetUri.slice(targetUri.indexOf('//') + 2 + authority.length);
      const q = rest.indexOf('?');
      return q === -1 ? rest : rest.slice(0, q);
    }
    case '@query': {
      const q = targetUri.indexOf('?');
      return q === -1 ? '?' : targetUri.slice(q);
    }
    default:
      return undefined;
  }
}

/**
 * Builds the signature base.
 *
 * @param signature - The covered components and the `@signature-params` value.
 * @param request - The request's method, canonical target and headers.
 * @returns The base, as text (ASCII by construction of the components).
 * @throws {SignatureBaseError} For a covered header the request lacks, a component the profile
 *   cannot carry, or a header value with a line break.
 * @example
 * signatureBase(parsed, { method: 'POST', target, headers }); // '"@method": POST\n...\n"@signature-params": (...)'
 */
export function signatureBase(signature: SignatureInput, request: SignedRequestView): string {
  let base = '';
  for (const component of signature.components) {
    let value: string | undefined;
    if (component.startsWith('@')) {
      value = derived(component, request);
      if (value === undefined)
        throw new SignatureBaseError(
          'component-unsupported',
          `the covered component "${shownText(component, 40)}" is not one this profile signs`,
        );
    } else {
      value = request.headers.get(component);
      if (value === undefined)
        throw new SignatureBaseError(
          'header-absent',
          `the signature covers "${shownText(component, 40)}" but the request has no such header`,
        );
      if (/[\r\n]/.test(value)) throw new SignatureBaseError('line-break', `the ${component} header holds a line break`);
    }
    base += `"${component}": ${value}\n`;
  }
  return `${base}"@signature-params": ${signature.paramsValue}`;
}
