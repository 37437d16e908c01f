/**
 * The one door to a seller's extra members. The AdCP schemas let an object carry members they do
 * not name, and decode() returns them as sent; the generated types name only the declared members
 * (no `[k: string]: unknown`), so that `response.prodcts` does not compile. What the schema does
 * not name is read here, by name, typed `unknown`: nothing checked it.
 */
import { own } from '../json/own.js';

/** The member names any arm of `T` declares. */
type Declared<T> = T extends unknown ? keyof T : never;

/**
 * `K` when no arm of `T` declares it, else `never`: a declared member is read as a property,
 * typed, not through {@link extra}.
 */
type ExtraKey<T, K extends string> = K extends Declared<T> ? never : K;

/**
 * Reads a member the schema does not name from decoded data (an own property; `undefined` when
 * absent). A name the type declares does not compile here: read it as a property.
 *
 * @param value A decoded object: a response, or an object inside one.
 * @param key The member's name, one no arm of the value's type declares.
 * @returns The member's value as sent, or `undefined`.
 * @throws Nothing for decoded data (plain objects); a getter or Proxy trap on another object may throw.
 * @example
 * const response = decode('get_products', result, { version: '3.1' });
 * if (isFinal(response)) console.log(extra(response, 'x_seller_note')); // unknown
 * // extra(response, 'products'); // does not compile: read response.products
 */
export function extra<T extends object, K extends string>(value: T, key: K & ExtraKey<T, K>): unknown {
  return own(value, key);
}
