/**
 * The RFC 9421 §2.5 signature base of a webhook request: one line per covered component, then
 * `@signature-params`, with `@target-uri` and `@authority` canonicalized per the AdCP profile.
 */
import { WebhookError } from '../errors.js';
import type { ParsedSignature } from './signature-headers.js';
import type { CanonicalTarget } from './target-uri.js';
import { shownText } from '../../errors/format.js';

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
 * @param signature - The parsed signature (components and `@signature-params` value).
 * @param request - The request's method, canonical target and headers.
 * @returns The base, as text (ASCII by construction of the components).
 * @throws {WebhookError} `webhook_signature_components_incomplete` for a covered field the request lacks;
 *   `webhook_signature_header_malformed` for a component the profile cannot carry.
 * @example
 * signatureBase(parsed, { method: 'POST', target, headers }); // '"@method": POST\n...\n"@signature-params": (...)'
 */
export function signatureBase(signature: ParsedSignature, request: SignedRequestView): string {
  let base = '';
  for (const component of signature.components) {
    let value: string | undefined;
    if (component.startsWith('@')) {
      value = derived(component, request);
      if (value === undefined)
        throw new WebhookError(
          'webhook_signature_header_malformed',
          `the covered component "${shownText(component, 40)}" is not one this profile signs`,
        );
    } else {
      value = request.headers.get(component);
      if (value === undefined)
        throw new WebhookError(
          'webhook_signature_components_incomplete',
          `the signature covers "${shownText(component, 40)}" but the request has no such header`,
        );
      if (/[\r\n]/.test(value)) throw new WebhookError('webhook_signature_header_malformed', `the ${component} header holds a line break`);
    }
    base += `"${component}": ${value}\n`;
  }
  return `${base}"@signature-params": ${signature.paramsValue}`;
}
