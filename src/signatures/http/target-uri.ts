/**
 * `@target-uri` and `@authority` canonicalization of the AdCP RFC 9421 profile (security.mdx;
 * vectors in request-signing/canonicalization.json): lowercase scheme and host, UTS-46 to
 * A-labels, userinfo and default port stripped, one trailing root dot removed, dot segments
 * removed, percent-encoding hex uppercased and unreserved characters decoded, query kept
 * byte for byte, fragment dropped. Malformed authorities are refused. Shared by every profile
 * (webhooks, and request signing): the refusal is a TargetUriError, which each verifier reports
 * under its own code (`webhook_target_uri_malformed`, `request_target_uri_malformed`).
 */

/** A canonical target URI and the authority derived from it. */
export interface CanonicalTarget {
  readonly targetUri: string;
  readonly authority: string;
}

/** A URL or authority the profile's canonicalization refuses. */
export class TargetUriError extends Error {
  override readonly name = 'TargetUriError';
}

function malformed(message: string): TargetUriError {
  return new TargetUriError(message);
}

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*$/;
const UNRESERVED = /[A-Za-z0-9._~-]/;
const PORT = /^[0-9]*$/;
const HOST_CHARS = /^[A-Za-z0-9.-]+$/;
const DEFAULT_PORTS: Readonly<Record<string, string>> = { https: '443', http: '80' };

/**
 * `scheme://authority path ?query #fragment` split by index (RFC 3986 appendix B), not by a
 * regular expression, whose overlapping groups backtracked on a long URL; undefined when there
 * is no `scheme://`.
 */
function splitUrl(url: string): { scheme: string; authority: string; path: string; query: string } | undefined {
  const colon = url.indexOf('://');
  if (colon <= 0 || !SCHEME.test(url.slice(0, colon))) return undefined;
  const hash = url.indexOf('#', colon + 3);
  const whole = hash === -1 ? url : url.slice(0, hash);
  const q = whole.indexOf('?', colon + 3);
  const beforeQuery = q === -1 ? whole : whole.slice(0, q);
  let end = colon + 3;
  while (end < beforeQuery.length && beforeQuery[end] !== '/') end++;
  return {
    scheme: url.slice(0, colon),
    authority: beforeQuery.slice(colon + 3, end),
    path: beforeQuery.slice(end),
    query: q === -1 ? '' : whole.slice(q),
  };
}

/**
 * Canonicalizes a host (no port): IPv6 literals keep their brackets with hex lowercased, zone
 * identifiers and bare IPv6 are refused; names are lowercased, turned into A-labels (UTS-46 via
 * WHATWG URL's host parser) and lose one trailing root dot.
 */
function canonicalHost(host: string): string {
  if (host.startsWith('[')) {
    if (!host.endsWith(']')) throw malformed('an IPv6 literal is missing its closing bracket');
    if (host.includes('%')) throw malformed('an IPv6 zone identifier is not allowed in a signed URL');
    return parsedHost(host);
  }
  if (host.includes(':')) throw malformed('an IPv6 literal must be bracketed');
  if (host === '') throw malformed('the authority has no host');
  let name = host;
  if (name.endsWith('.')) {
    name = name.slice(0, -1);
    if (name.endsWith('.') || name === '') throw malformed('the host ends in more than one dot');
  }
  return parsedHost(name);
}

function parsedHost(host: string): string {
  let hostname: string;
  try {
    hostname = new URL(`https://${host}/`).hostname;
  } catch {
    throw malformed('the host is not a valid host name');
  }
  if (!hostname.startsWith('[') && !HOST_CHARS.test(hostname)) throw malformed('the host is not a valid host name');
  return hostname;
}

/** Splits `userinfo@host:port` into a canonical `host[:port]`. */
function canonicalAuthority(raw: string, scheme: string): string {
  const at = raw.lastIndexOf('@');
  const hostPort = at === -1 ? raw : raw.slice(at + 1);
  if (hostPort === '') throw malformed(at === -1 ? 'the authority is empty' : 'the authority has no host');
  let host = hostPort;
  let port = '';
  const close = hostPort.lastIndexOf(']');
  const colon = hostPort.lastIndexOf(':');
  if (colon > close && (hostPort.startsWith('[') || hostPort.indexOf(':') === colon)) {
    host = hostPort.slice(0, colon);
    port = hostPort.slice(colon + 1);
  }
  if (!PORT.test(port)) throw malformed('the port is not a number');
  if (host === '') throw malformed('the authority has no host');
  const canonical = canonicalHost(host);
  const trimmedPort = port.replace(/^0+(?=\d)/, '');
  return trimmedPort === '' || DEFAULT_PORTS[scheme] === trimmedPort ? canonical : `${canonical}:${trimmedPort}`;
}

const encoder = new TextEncoder();

/** Normalizes percent-encoding: hex uppercased, unreserved characters decoded, raw non-ASCII encoded. */
function normalizeEncoding(path: string): string {
  let out = '';
  for (let i = 0; i < path.length; i++) {
    const c = path[i] as string;
    if (c === '%' && /^[0-9A-Fa-f]{2}$/.test(path.slice(i + 1, i + 3))) {
      const byte = parseInt(path.slice(i + 1, i + 3), 16);
      const char = String.fromCharCode(byte);
      out += UNRESERVED.test(char) ? char : `%${path.slice(i + 1, i + 3).toUpperCase()}`;
      i += 2;
    } else if (c.charCodeAt(0) > 0x7e || c.charCodeAt(0) <= 0x20) {
      const codePoint = path.codePointAt(i) ?? 0;
      const char = String.fromCodePoint(codePoint);
      for (const byte of encoder.encode(char)) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
      i += char.length - 1;
    } else {
      out += c;
    }
  }
  return out;
}

/** RFC 3986 §5.2.4 remove_dot_segments; consecutive slashes are kept. */
function removeDotSegments(path: string): string {
  const input = path.split('/');
  const output: string[] = [];
  for (let i = 0; i < input.length; i++) {
    const segment = input[i] as string;
    const last = i === input.length - 1;
    if (segment === '.') {
      if (last) output.push('');
    } else if (segment === '..') {
      if (output.length > 1) output.pop();
      if (last) output.push('');
    } else {
      output.push(segment);
    }
  }
  const joined = output.join('/');
  return joined.startsWith('/') ? joined : `/${joined}`;
}

/**
 * Canonicalizes a request URL into the `@target-uri` and `@authority` the signature covers.
 *
 * @param url - The absolute URL as received (scheme and authority included).
 * @returns The canonical target URI and authority.
 * @throws {TargetUriError} For a URL that is not absolute or whose authority is malformed.
 * @example
 * canonicalTarget('HTTPS://Buyer.example:443/a/./b?x=1#f'); // { targetUri: 'https://buyer.example/a/b?x=1', authority: 'buyer.example' }
 */
export function canonicalTarget(url: string): CanonicalTarget {
  const parts = splitUrl(url);
  if (parts === undefined) throw malformed('expected an absolute http(s) URL with an authority');
  const scheme = parts.scheme.toLowerCase();
  const authority = canonicalAuthority(parts.authority, scheme);
  const path = removeDotSegments(normalizeEncoding(parts.path));
  return { targetUri: `${scheme}://${authority}${path}${parts.query}`, authority };
}

/**
 * Canonicalizes an HTTP `Host` (or `:authority`) value the way the target URI's authority is.
 *
 * @param host - The header value.
 * @param scheme - The request scheme, for the default port.
 * @returns The canonical `host[:port]`.
 * @throws {TargetUriError} For a malformed authority.
 * @example
 * canonicalHostHeader('Buyer.Example:443', 'https'); // 'buyer.example'
 */
export function canonicalHostHeader(host: string, scheme: string): string {
  return canonicalAuthority(host.trim(), scheme.toLowerCase());
}

/**
 * The endpoint a signer signs for, as the receiving side registered it: an origin, whose request
 * path and query complete each target, or one full URL, which is the target of every request.
 */
export interface RegisteredEndpoint {
  /** `scheme://authority`, canonical. */
  readonly origin: string;
  readonly authority: string;
  /** The canonical path and query of a full registered URL; `undefined` for an origin. */
  readonly pathAndQuery: string | undefined;
}

/**
 * Canonicalizes the URL (or origin) a receiver registered with its signers.
 *
 * @param url - An absolute http(s) URL; with no path beyond `/` and no query it names an origin.
 * @returns The canonical endpoint.
 * @throws {TargetUriError} For a URL that is not absolute http(s).
 * @example
 * registeredEndpoint('https://Buyer.example/').origin; // 'https://buyer.example'
 */
export function registeredEndpoint(url: string): RegisteredEndpoint {
  const { targetUri, authority } = canonicalTarget(url);
  const origin = targetUri.slice(0, targetUri.indexOf('://') + 3 + authority.length);
  if (!/^https?:\/\/$/.test(origin.slice(0, origin.length - authority.length))) throw malformed('expected an http(s) URL');
  const rest = targetUri.slice(origin.length);
  return { origin, authority, pathAndQuery: rest === '/' ? undefined : rest };
}

/**
 * The target a request to a registered endpoint was signed for: the endpoint's origin (never the
 * request's `Host`), and the registered path and query, or else the request's own.
 *
 * @param endpoint - The registered endpoint.
 * @param requestUrl - The request's URL, absolute or (Node's `req.url`) starting with `/`.
 * @returns The canonical target URI and authority.
 * @throws {TargetUriError} For a request URL that does not parse.
 * @example
 * pinnedTarget(registeredEndpoint('https://buyer.example'), '/hook?op=1').targetUri; // 'https://buyer.example/hook?op=1'
 */
export function pinnedTarget(endpoint: RegisteredEndpoint, requestUrl: string): CanonicalTarget {
  if (endpoint.pathAndQuery !== undefined) return { targetUri: endpoint.origin + endpoint.pathAndQuery, authority: endpoint.authority };
  const received = requestUrl.startsWith('/') ? canonicalTarget(endpoint.origin + requestUrl) : canonicalTarget(requestUrl);
  const rest = received.targetUri.slice(received.targetUri.indexOf('://') + 3 + received.authority.length);
  return { targetUri: endpoint.origin + rest, authority: endpoint.authority };
}
