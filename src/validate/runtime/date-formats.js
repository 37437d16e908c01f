// @ts-check
/**
 * The JSON Schema formats `date` and `date-time` as ajv-formats' full mode checks them (RFC 3339
 * `full-date` and `date-time`, with its leniencies kept), as a linear scan in plain ESM so that
 * the generated validators need not import ajv-formats' CommonJS.
 */

const DASH = 0x2d;
const COLON = 0x3a;
const DOT = 0x2e;
const PLUS = 0x2b;

/**
 * Days in each month of a common year, January first.
 * @type {readonly number[]}
 */
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Whether a string is a calendar date `YYYY-MM-DD` that exists (February 29 only in leap years),
 * as ajv-formats' full `date` format decides.
 *
 * @param {string} text The string to check.
 * @returns {boolean} `true` when ajv-formats' `fullFormats.date` accepts it.
 * @throws Never.
 * @example
 * isDate('2024-02-29'); // true
 * isDate('2023-02-29'); // false
 */
export function isDate(text) {
  return text.length === 10 && isFullDate(text);
}

/**
 * Whether a string is a date and a time with a time zone, as ajv-formats' full `date-time`
 * format decides: one separator (`T`, `t` or any JavaScript whitespace, e.g. a space), seconds
 * with an optional fraction, `Z`/`z` or an offset (`+05`, `+0530`, `+05:30`), and 60 seconds
 * only for a leap second that falls at 23:59 UTC.
 *
 * @param {string} text The string to check.
 * @returns {boolean} `true` when ajv-formats' `fullFormats["date-time"]` accepts it.
 * @throws Never.
 * @example
 * isDateTime('2026-12-01T14:30:00.5+01:00'); // true
 * isDateTime('2026-12-01T14:30:00'); // false (no time zone)
 */
export function isDateTime(text) {
  // Digits, dashes and the time's characters are never separators, so a valid string has its one
  // separator at index 10, which is what ajv-formats' split into exactly two parts amounts to.
  return isSeparator(text.charCodeAt(10)) && isFullDate(text) && isTime(text, 11);
}

/**
 * The value of the ASCII digit at `at` (`\d` without the `u` flag), or -1 for anything else.
 * @param {string} text
 * @param {number} at
 * @returns {number}
 */
function digit(text, at) {
  const value = text.charCodeAt(at) - 0x30; // NaN past the end, which fails both comparisons
  return value >= 0 && value <= 9 ? value : -1;
}

/**
 * The value of the two ASCII digits at `at`, or -1 when either is not one.
 * @param {string} text
 * @param {number} at
 * @returns {number}
 */
function twoDigits(text, at) {
  const tens = digit(text, at);
  const ones = digit(text, at + 1);
  return tens < 0 || ones < 0 ? -1 : tens * 10 + ones;
}

/**
 * Whether `text` starts with a date that exists, `YYYY-MM-DD` (the caller checks what follows).
 * @param {string} text
 * @returns {boolean}
 */
function isFullDate(text) {
  const century = twoDigits(text, 0);
  const yearOfCentury = twoDigits(text, 2);
  const month = twoDigits(text, 5);
  const day = twoDigits(text, 8);
  if (century < 0 || yearOfCentury < 0 || month < 1 || month > 12 || day < 1) return false;
  if (text.charCodeAt(4) !== DASH || text.charCodeAt(7) !== DASH) return false;
  const year = century * 100 + yearOfCentury;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 && leap ? 29 : (DAYS_IN_MONTH[month - 1] ?? 0));
}

/**
 * Whether `text` from `start` to its end is `hh:mm:ss[.fraction]` and a time zone, with the ranges
 * and the leap-second rule of ajv-formats' strict `time`: hours, minutes and offsets are two
 * digits each, checked by value afterwards, so out-of-range fields can still make a leap second.
 * @param {string} text
 * @param {number} start
 * @returns {boolean}
 */
function isTime(text, start) {
  const hour = twoDigits(text, start);
  const minute = twoDigits(text, start + 3);
  if (hour < 0 || minute < 0 || twoDigits(text, start + 6) < 0) return false;
  if (text.charCodeAt(start + 2) !== COLON || text.charCodeAt(start + 5) !== COLON) return false;
  let at = start + 8;
  if (text.charCodeAt(at) === DOT) {
    const first = ++at;
    while (digit(text, at) >= 0) at++;
    if (at === first) return false;
  }
  // Read as ajv-formats reads it, so a long fraction rounds the same way (59.99999999999999999 is 60).
  const second = Number(text.slice(start + 6, at));
  let sign = 1;
  let zoneHour = 0;
  let zoneMinute = 0;
  const zone = text.charCodeAt(at);
  if (zone === 0x5a || zone === 0x7a) {
    if (at + 1 !== text.length) return false;
  } else if (zone === PLUS || zone === DASH) {
    if (zone === DASH) sign = -1;
    zoneHour = twoDigits(text, at + 1);
    if (zoneHour < 0) return false;
    at += 3;
    if (at !== text.length) {
      if (text.charCodeAt(at) === COLON) at++;
      zoneMinute = twoDigits(text, at);
      if (zoneMinute < 0 || at + 2 !== text.length) return false;
    }
  } else return false; // a time zone is required
  if (zoneHour > 23 || zoneMinute > 59) return false;
  if (hour <= 23 && minute <= 59 && second < 60) return true;
  // A leap second: 23:59:60 once the offset is taken away (a minute of -1 borrows an hour).
  const utcMinute = minute - zoneMinute * sign;
  const utcHour = hour - zoneHour * sign - (utcMinute < 0 ? 1 : 0);
  return (utcHour === 23 || utcHour === -1) && (utcMinute === 59 || utcMinute === -1) && second < 61;
}

/**
 * Whether a UTF-16 code unit is `t`, `T` or matched by `\s` (WhiteSpace and LineTerminator).
 * @param {number} code
 * @returns {boolean}
 */
function isSeparator(code) {
  if (code === 0x74 || code === 0x54 || code === 0x20 || (code >= 0x09 && code <= 0x0d)) return true;
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}
