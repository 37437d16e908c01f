// @ts-check
/**
 * The helpers the generated validator modules (src/generated/<v>/validators/*.js) import, as Ajv's
 * standalone code imports `ajv/dist/runtime/*`: the linear uniqueItems check, the code-point
 * length of maxLength/minLength, the recording and stop of an error listing (with Ajv's messages,
 * derived from keyword and params by messages.js), and the formats and equality Ajv
 * would take from ajv-formats and fast-deep-equal (CommonJS, which costs Node's loader at cold start). Plain JavaScript typed by its
 * JSDoc (tsc checks and compiles it), because those modules load it with Node's own loader from
 * src/ as from dist/; web-standard APIs only, since bundles for browsers include it.
 */

import { isDate, isDateTime } from './date-formats.js';
import { errorMessage } from './messages.js';

// The formats and the equality the generated code calls, in plain ESM (no CommonJS to load).
export { jsonEqual } from './json-equal.js';
export { isUri } from './uri-format.js';

/** Up to this many items, {@link uniquePair} compares pairs as Ajv does; longer arrays are keyed. */
export const UNIQUE_PAIRWISE_MAX = 32;

/**
 * Orders an object's keys, so that two objects deep-equal as JSON stringify alike.
 * @param {string} _key
 * @param {unknown} value
 * @returns {unknown}
 */
function sortedKeys(_key, value) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const object = /** @type {Record<string, unknown>} */ (value);
  return Object.fromEntries(
    Object.keys(object)
      .sort()
      .map((k) => [k, object[k]]),
  );
}

/**
 * The pair of equal items Ajv's `uniqueItems` loop reports (the last item that repeats an earlier
 * one, and its nearest earlier copy), in linear time past {@link UNIQUE_PAIRWISE_MAX} items: a
 * primitive is keyed by itself (a Map's SameValueZero is deep-equal's equality on primitives), an
 * object or array by its canonical JSON (deep-equal's equality on JSON data, all decode() lets through).
 *
 * @param {readonly unknown[]} items The array under `uniqueItems`.
 * @param {(a: unknown, b: unknown) => boolean} equal Ajv's deep equality, used on short arrays.
 * @returns {[number, number] | null} `[i, j]` with `j < i` and `items[i]` equal to `items[j]`, or null when all differ.
 * @throws {TypeError} When an item cannot be stringified (a cycle, a BigInt): never for parsed JSON.
 * @example
 * uniquePair(['a', 'b', 'a'], deepEqual); // [2, 0]
 */
export function uniquePair(items, equal) {
  const n = items.length;
  if (n <= UNIQUE_PAIRWISE_MAX) {
    for (let i = n; i--; ) for (let j = i; j--; ) if (equal(items[i], items[j])) return [i, j];
    return null;
  }
  /** @type {Map<unknown, number>} */
  const primitives = new Map();
  /** @type {Map<string | undefined, number>} */
  const objects = new Map();
  /** @type {[number, number] | null} */
  let pair = null;
  for (let i = 0; i < n; i++) {
    const item = items[i];
    if (item !== null && typeof item === 'object') {
      const key = JSON.stringify(item, sortedKeys);
      const j = objects.get(key);
      if (j !== undefined) pair = [i, j];
      objects.set(key, i);
    } else {
      const j = primitives.get(item);
      if (j !== undefined) pair = [i, j];
      primitives.set(item, i);
    }
  }
  return pair;
}

/**
 * The length of a string in code points, as JSON Schema's maxLength and minLength count it: a
 * surrogate pair is one character, a lone surrogate one too.
 *
 * @param {string} text The string.
 * @returns {number} Its length in code points.
 * @throws Never.
 * @example
 * ucs2length('a😀'); // 2
 */
export function ucs2length(text) {
  let n = 0;
  for (let i = 0; i < text.length; i++, n++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
  }
  return n;
}

/**
 * The one error object of the fast (verdict-only) validators, which build no error details
 * (verdictOnly, scripts/generate/rewrites.ts); frozen, as every module of every release shares it.
 */
export const noDetail = Object.freeze({});

/** The most errors one error-listing validator function holds before the listing stops. */
export const LISTING_LIMIT = 100_000;

/**
 * Thrown by an error-listing validator that holds more than {@link LISTING_LIMIT} errors, with the
 * first error it recorded; the caller reports that one and says the listing stopped.
 */
export class ListingStopped extends Error {
  /**
   * @param {unknown} first The first error the validator recorded (an Ajv error object).
   */
  constructor(first) {
    super(`the listing stopped after more than ${LISTING_LIMIT} errors`);
    /** The first error the validator recorded (an Ajv error object). */
    this.first = first;
  }
}

/**
 * Stops an error listing: called by the listing validators once they hold more than LISTING_LIMIT errors.
 *
 * @param {readonly unknown[]} errors The errors the validator holds.
 * @returns {never}
 * @throws {ListingStopped} Always, with the first of them.
 * @example
 * if (errors > LISTING_LIMIT) stopListing(vErrors);
 */
export function stopListing(errors) {
  throw new ListingStopped(errors[0]);
}

/**
 * Records an error of a listing validator, as Ajv's allErrors code does in line (compactErrors,
 * scripts/generate/rewrites.ts): the same object, fields in Ajv's order, appended to the list or
 * starting it, then the listing stops past LISTING_LIMIT errors. The keyword is the last segment
 * of the schema path, where Ajv puts it (pathKeywords); a site whose message the keyword and
 * params give (derivedMessages) passes none, and the message is Ajv's, from errorMessage.
 *
 * @param {unknown[] | null} list The errors so far (`vErrors`), or null.
 * @param {number} count How many errors the validator holds with this one.
 * @param {string} instancePath
 * @param {string} schemaPath Ending in `/` and the keyword.
 * @param {Record<string, unknown>} params
 * @param {string} [message] Ajv's message, when the site keeps it; else errorMessage(keyword, params).
 * @param {string} [propertyName] Set under `propertyNames` only (with the message).
 * @returns {unknown[]} The list.
 * @throws {ListingStopped} When `count` exceeds LISTING_LIMIT.
 * @example
 * vErrors = recordError(vErrors, ++errors, instancePath, "#/type", { type: "string" }); // keyword 'type', message 'must be string'
 */
export function recordError(list, count, instancePath, schemaPath, params, message, propertyName) {
  const keyword = schemaPath.slice(schemaPath.lastIndexOf('/') + 1);
  if (message === undefined) message = errorMessage(keyword, params);
  const error =
    propertyName === undefined
      ? { instancePath, schemaPath, keyword, params, message }
      : { instancePath, schemaPath, keyword, params, message, propertyName };
  if (list === null) list = [error];
  else list.push(error);
  if (count > LISTING_LIMIT) stopListing(list);
  return list;
}

/**
 * Appends a referenced validator's errors to a listing, as Ajv's code does in line (compactMerges,
 * scripts/generate/rewrites.ts): the first errors become the list itself, later ones are pushed
 * in order; the listing stops past LISTING_LIMIT errors.
 *
 * @param {unknown[] | null} list The errors so far (`vErrors`), or null.
 * @param {unknown[]} more The referenced validator's errors.
 * @returns {unknown[]} The list.
 * @throws {ListingStopped} When the list holds more than LISTING_LIMIT errors.
 * @example
 * vErrors = mergeErrors(vErrors, validate12.errors);
 */
export function mergeErrors(list, more) {
  if (list === null) list = more;
  else for (const e of more) list.push(e);
  if (list.length > LISTING_LIMIT) stopListing(list);
  return list;
}

/** Ajv's `date` format as the generated code calls it (`format.validate(text)`). */
export const dateFormat = Object.freeze({ validate: isDate });

/** Ajv's `date-time` format as the generated code calls it (`format.validate(text)`). */
export const dateTimeFormat = Object.freeze({ validate: isDateTime });
