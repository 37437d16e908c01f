/**
 * isDate and isDateTime (src/validate/runtime/date-formats.js) against the formats they replace, ajv-formats'
 * `fullFormats.date` and `fullFormats["date-time"]`, as the oracle: on strings built to reach every
 * branch (month lengths, leap years, centuries, every separator, every time-zone form, the
 * leap-second arithmetic), on mutations of them, and on arbitrary strings. Counters prove that
 * each branch was reached both by strings the library accepts and by strings it rejects.
 */
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { isDate, isDateTime } from '../../src/validate/runtime/date-formats.js';

const require = createRequire(import.meta.url);
type Format = { validate: (text: string) => boolean };
const { fullFormats } = require('ajv-formats/dist/formats.js') as { fullFormats: { date: Format; 'date-time': Format } };
const libraryDate = (text: string): boolean => fullFormats.date.validate(text);
const libraryDateTime = (text: string): boolean => fullFormats['date-time'].validate(text);

const RUNS = 20_000;
const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

// Building blocks: real dates and times mostly (so that acceptance is common), and the values at
// the edges of each range.
const daysIn = (y: number, m: number): number =>
  m === 2 && y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : ([31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1] ?? 0);
const realDate = fc
  .tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 31 }))
  .map(([y, m, d]) => `${pad(y, 4)}-${pad(m)}-${pad(Math.min(d, daysIn(y, m)))}`);
const february29 = fc
  .oneof(
    fc.constantFrom(2024, 2023, 2000, 1900, 2100, 1600, 1800, 2400, 0, 4, 9996),
    fc.integer({ min: 0, max: 2499 }).map((n) => n * 4),
    fc.integer({ min: 0, max: 99 }).map((n) => n * 100),
    fc.integer({ min: 0, max: 9999 }),
  )
  .map((y) => `${pad(y, 4)}-02-29`);
const edgeDate = fc
  .tuple(
    fc.oneof(
      fc.constantFrom('2024', '2023', '2000', '1900', '0000', '9999'),
      fc.integer({ min: 0, max: 9999 }).map((y) => pad(y, 4)),
    ),
    fc.oneof(
      fc.constantFrom('02', '04', '01', '12', '00', '13', '20', '99'),
      fc.integer({ min: 0, max: 99 }).map((m) => pad(m)),
    ),
    fc.oneof(
      fc.constantFrom('29', '28', '30', '31', '01', '00', '32', '99'),
      fc.integer({ min: 0, max: 99 }).map((d) => pad(d)),
    ),
  )
  .map(([y, m, d]) => `${y}-${m}-${d}`);
const date = fc.oneof({ arbitrary: realDate, weight: 3 }, { arbitrary: february29, weight: 2 }, { arbitrary: edgeDate, weight: 2 });

const separator = fc.oneof(
  { arbitrary: fc.constantFrom('T', 't', ' '), weight: 4 },
  {
    arbitrary: fc.constantFrom(
      '\t',
      '\n',
      '\r',
      '\v',
      '\f',
      '\u2028',
      '\u2029',
      '\u00a0',
      '\u1680',
      '\u2000',
      '\u200a',
      '\u202f',
      '\u205f',
      '\u3000',
      '\ufeff',
    ),
    weight: 2,
  },
  { arbitrary: fc.constantFrom('\u180e', '\u200b', 'x', '', 'TT', 'T ', '_', '-', ':'), weight: 1 },
);
const twoDigits = (edges: readonly string[]): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constantFrom(...edges),
    fc.integer({ min: 0, max: 99 }).map((n) => pad(n)),
  );
const fraction = fc.oneof(
  { arbitrary: fc.constant(''), weight: 3 },
  { arbitrary: fc.stringMatching(/^\.\d{1,4}$/), weight: 2 },
  { arbitrary: fc.constantFrom('.', '.99999999999999999', '.5', '.000'), weight: 1 },
);
const sign = fc.constantFrom('+', '-');
const realZone = fc.oneof(
  fc.constantFrom('Z', 'z'),
  fc
    .tuple(sign, fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), fc.constantFrom(':', '', 'hours'))
    .map(([s, h, m, form]) => (form === 'hours' ? `${s}${pad(h)}` : `${s}${pad(h)}${form}${pad(m)}`)),
);
const edgeZone = fc.oneof(
  fc.constantFrom('', '+24:00', '+00:60', '+05:', '+5', '+05:3', '+053', 'Z+01:00', 'UTC', '+05:30Z', '+05::30'),
  fc
    .tuple(sign, fc.integer({ min: 0, max: 99 }), fc.integer({ min: 0, max: 99 }), fc.constantFrom(':', '', 'hours'))
    .map(([s, h, m, form]) => (form === 'hours' ? `${s}${pad(h)}` : `${s}${pad(h)}${form}${pad(m)}`)),
);
const realTime = fc
  .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 59 }), fraction, realZone)
  .map(([h, m, s, f, z]) => `${pad(h)}:${pad(m)}:${pad(s)}${f}${z}`);
const edgeTime = fc
  .tuple(
    twoDigits(['00', '23', '24', '99']),
    twoDigits(['00', '59', '60']),
    twoDigits(['00', '59', '60', '61']),
    fraction,
    fc.oneof(realZone, edgeZone),
  )
  .map(([h, m, s, f, z]) => `${h}:${m}:${s}${f}${z}`);

/**
 * A second of 60 whose hour and minute, once the offset is taken away by ajv-formats' arithmetic,
 * land on 23:59 or on its wrapped form -1:-1 (so accepted), or miss by one (so rejected).
 */
const leapSecond = fc
  .tuple(
    sign,
    fc.integer({ min: 0, max: 23 }),
    fc.integer({ min: 0, max: 59 }),
    fc.constantFrom(59, -1),
    fc.constantFrom(23, -1),
    fc.constantFrom(0, 0, 0, 1, -1),
    fc.constantFrom('60', '60.5', '60.999', '59.99999999999999999', '60.99999999999999999', '61'),
    fc.constantFrom(':', ''),
  )
  .map(([s, zh, zm, utcMinute, utcHour, miss, second, colon]) => {
    const direction = s === '-' ? -1 : 1;
    const minute = utcMinute + zm * direction + miss;
    const hour = utcHour + zh * direction + (utcMinute < 0 ? 1 : 0);
    if (minute < 0 || minute > 99 || hour < 0 || hour > 99) return `${pad(23)}:59:${second}${s}${pad(zh)}${colon}${pad(zm)}`;
    return `${pad(hour)}:${pad(minute)}:${second}${s}${pad(zh)}${colon}${pad(zm)}`;
  });

const time = fc.oneof({ arbitrary: realTime, weight: 3 }, { arbitrary: edgeTime, weight: 2 }, { arbitrary: leapSecond, weight: 2 });
const dateTime = fc.tuple(date, separator, time).map(([d, s, t]) => `${d}${s}${t}`);

// Mutations: one to three characters inserted, deleted or replaced, from the characters that matter and from anywhere.
const character = fc.oneof(
  fc.constantFrom('0', '9', '-', ':', '.', '+', 'Z', 'z', 'T', 't', ' ', '\u2028', '\u00a0', '\n', 'e', '٣'),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
);
const mutation = fc.record({ kind: fc.constantFrom('insert', 'delete', 'replace'), at: fc.nat(), character });
function mutate(text: string, mutations: readonly { kind: string; at: number; character: string }[]): string {
  let out = text;
  for (const m of mutations) {
    const at = m.at % (out.length + 1);
    if (m.kind === 'insert') out = out.slice(0, at) + m.character + out.slice(at);
    else if (m.kind === 'delete') out = out.slice(0, at) + out.slice(at + 1);
    else out = out.slice(0, at) + m.character + out.slice(at + 1);
  }
  return out;
}
const mutated = (base: fc.Arbitrary<string>): fc.Arbitrary<string> =>
  fc.tuple(base, fc.array(mutation, { minLength: 1, maxLength: 3 })).map(([text, ms]) => mutate(text, ms));

/** Counts, per branch, how many generated strings the library accepted and rejected. */
class Reached {
  readonly counts = new Map<string, { accepted: number; rejected: number }>();
  add(branch: string, accepted: boolean): void {
    const count = this.counts.get(branch) ?? { accepted: 0, rejected: 0 };
    if (accepted) count.accepted++;
    else count.rejected++;
    this.counts.set(branch, count);
  }
  /** The branches that fell short of `least` accepted (when `accepted`) and rejected (when `rejected`) strings. */
  missing(expected: readonly (readonly [string, boolean, boolean])[], least: number): string[] {
    return expected.flatMap(([branch, accepted, rejected]) => {
      const count = this.counts.get(branch) ?? { accepted: 0, rejected: 0 };
      return (accepted && count.accepted < least) || (rejected && count.rejected < least)
        ? [`${branch}: ${count.accepted} accepted, ${count.rejected} rejected`]
        : [];
    });
  }
}

const DATE_SHAPE = /^(\d{4})-(\d\d)-(\d\d)$/;
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
/** The branches of the date check a string reaches. */
function dateBranches(text: string): string[] {
  const match = DATE_SHAPE.exec(text);
  if (match === null) return ['shape'];
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (m === 0 || m > 12) return ['month out of range'];
  if (d === 0) return ['day 0'];
  if (m === 2 && d === 29) {
    const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
    return [y % 100 === 0 ? `Feb 29, century ${leap ? 'leap' : 'common'}` : `Feb 29, ${leap ? 'leap' : 'common'} year`];
  }
  if (d === DAYS[m - 1]) return ['last day of the month'];
  return [d > (DAYS[m - 1] ?? 0) ? 'day past the month' : 'day inside the month'];
}

const DATE_TIME_SHAPE = /^(.{10})(.)(\d\d):(\d\d):(\d\d)(\.\d+)?(.*)$/su;
/** The branches of the date-time check a string reaches (the date part's through dateBranches). */
function dateTimeBranches(text: string): string[] {
  const match = DATE_TIME_SHAPE.exec(text);
  if (match === null) return ['shape'];
  const [, datePart = '', sep = '', hour = '', minute = '', second = '', fractionPart, zonePart = ''] = match;
  const branches = dateBranches(datePart).map((b) => `date: ${b}`);
  if (sep === 'T' || sep === 't' || sep === ' ') branches.push(`separator ${JSON.stringify(sep)}`);
  else if (/^\s$/u.test(sep)) branches.push('separator: other whitespace');
  else branches.push('separator: not one');
  if (/[\st]/iu.test(datePart + zonePart)) branches.push('a second separator');
  if (zonePart === 'Z' || zonePart === 'z') branches.push(`zone ${zonePart}`);
  else if (zonePart === '') branches.push('zone: none');
  else if (/^[+-]\d\d:\d\d$/u.test(zonePart)) branches.push('zone ±hh:mm');
  else if (/^[+-]\d{4}$/u.test(zonePart)) branches.push('zone ±hhmm');
  else if (/^[+-]\d\d$/u.test(zonePart)) branches.push('zone ±hh');
  else branches.push('zone: malformed');
  if (/^[+-](2[4-9]|[3-9]\d)/u.test(zonePart)) branches.push('zone hour over 23');
  if (/^[+-]\d\d:?([6-9]\d)$/u.test(zonePart)) branches.push('zone minute over 59');
  if (fractionPart !== undefined) branches.push('fraction');
  if (Number(second + (fractionPart ?? '')) >= 60) branches.push('second 60 or more');
  if (Number(hour) > 23) branches.push('hour over 23');
  if (Number(minute) > 59) branches.push('minute over 59');
  return branches;
}

describe('isDate', () => {
  test('agrees with ajv-formats on dates, their mutations and arbitrary strings', () => {
    const reached = new Reached();
    fc.assert(
      fc.property(fc.oneof({ arbitrary: date, weight: 3 }, mutated(date), fc.string({ unit: 'binary', maxLength: 14 })), (text) => {
        const expected = libraryDate(text);
        for (const branch of dateBranches(text)) reached.add(branch, expected);
        expect(isDate(text), JSON.stringify(text)).toBe(expected);
      }),
      { seed: 20_261_201, numRuns: RUNS },
    );
    const branches = [
      ['shape', false, true],
      ['month out of range', false, true],
      ['day 0', false, true],
      ['day past the month', false, true],
      ['day inside the month', true, false],
      ['last day of the month', true, false],
      ['Feb 29, leap year', true, false],
      ['Feb 29, common year', false, true],
      ['Feb 29, century leap', true, false],
      ['Feb 29, century common', false, true],
    ] as const;
    expect(reached.missing(branches, 50)).toEqual([]);
  });

  test.each([
    ['2024-02-29', true],
    ['2023-02-29', false],
    ['2000-02-29', true],
    ['1900-02-29', false],
    ['0000-02-29', true],
    ['2026-04-30', true],
    ['2026-04-31', false],
    ['2026-12-31', true],
    ['2026-01-32', false],
    ['2026-00-10', false],
    ['2026-13-10', false],
    ['2026-01-00', false],
    ['2026-1-01', false],
    ['+2026-01-01', false],
    ['2026-01-01\n', false],
    ['2026-01-01T00:00:00Z', false],
    ['２０２６-01-01', false],
    ['', false],
  ] as const)('%j is %s, as ajv-formats says', (text, expected) => {
    expect(libraryDate(text)).toBe(expected);
    expect(isDate(text)).toBe(expected);
  });
});

describe('isDateTime', () => {
  test('agrees with ajv-formats on date-times, leap seconds, their mutations and arbitrary strings', () => {
    const reached = new Reached();
    fc.assert(
      fc.property(
        fc.oneof(
          { arbitrary: dateTime, weight: 3 },
          { arbitrary: mutated(dateTime), weight: 2 },
          fc.string({ unit: 'binary', maxLength: 40 }),
        ),
        (text) => {
          const expected = libraryDateTime(text);
          for (const branch of dateTimeBranches(text)) reached.add(branch, expected);
          expect(isDateTime(text), JSON.stringify(text)).toBe(expected);
        },
      ),
      { seed: 20_261_202, numRuns: RUNS },
    );
    const branches = [
      ['shape', false, true],
      ['date: day past the month', false, true],
      ['date: Feb 29, leap year', true, true],
      ['date: Feb 29, common year', false, true],
      ['separator "T"', true, true],
      ['separator "t"', true, true],
      ['separator " "', true, true],
      ['separator: other whitespace', true, true],
      ['separator: not one', false, true],
      ['a second separator', false, true],
      ['zone Z', true, true],
      ['zone z', true, true],
      ['zone ±hh:mm', true, true],
      ['zone ±hhmm', true, true],
      ['zone ±hh', true, true],
      ['zone: none', false, true],
      ['zone: malformed', false, true],
      ['zone hour over 23', false, true],
      ['zone minute over 59', false, true],
      ['fraction', true, true],
      ['second 60 or more', true, true],
      ['hour over 23', true, true],
      ['minute over 59', true, true],
    ] as const;
    expect(reached.missing(branches, 50)).toEqual([]);
  });

  test('treats as the separator exactly the UTF-16 code units ajv-formats splits on (all 65,536 tried)', () => {
    const accepted: number[] = [];
    for (let code = 0; code <= 0xffff; code++) {
      const text = `2024-02-29${String.fromCharCode(code)}23:59:60Z`;
      const expected = libraryDateTime(text);
      if (isDateTime(text) !== expected) throw new Error(`U+${code.toString(16)}: expected ${expected}`);
      if (expected) accepted.push(code);
    }
    // t, T, and \s: the ASCII and Unicode spaces, line terminators and the BOM.
    expect(accepted.length).toBe(27);
  });

  test.each([
    ['2026-12-01T14:30:00Z', true],
    ['2026-12-01t14:30:00z', true],
    ['2026-12-01 14:30:00+01:00', true],
    ['2026-12-01\u202814:30:00-05:30', true],
    ['2026-12-01\u00a014:30:00+0530', true],
    ['2026-12-01T14:30:00+05', true],
    ['2026-12-01T14:30:00.123456789Z', true],
    ['2026-12-01T14:30:00', false],
    ['2026-12-01T14:30:00.Z', false],
    ['2026-12-01T14:30Z', false],
    ['2026-12-01TT14:30:00Z', false],
    ['2026-12-01T14:30:00+05:', false],
    ['2026-12-01T14:30:00+053', false],
    ['2026-12-01T14:30:00+24:00', false],
    ['2026-12-01T14:30:00+00:60', false],
    ['2026-12-01T24:00:00Z', false],
    ['2026-12-01T23:60:00Z', false],
    ['2026-02-30T00:00:00Z', false],
    ['2016-12-31T23:59:60Z', true],
    ['2016-12-31T23:59:60.999Z', true],
    ['2016-12-31T23:59:61Z', false],
    ['2016-12-31T22:59:60Z', false],
    ['2016-12-31T18:59:60-05:00', true],
    ['2017-01-01T00:59:60+01:00', true],
    ['2016-12-31T23:59:60+01:00', false],
    ['2016-12-31T24:59:60+01:00', true],
    ['2016-12-31T23:60:60+00:01', true],
    ['2016-12-31T23:60:30+00:01', true],
    ['2016-12-31T00:00:60+00:01', true],
    ['2016-12-31T23:59:59.99999999999999999Z', true],
    ['2016-12-31T22:59:59.99999999999999999Z', false],
    ['2016-12-31T23:59:60.99999999999999999Z', false],
  ] as const)('%j is %s, as ajv-formats says', (text, expected) => {
    expect(libraryDateTime(text)).toBe(expected);
    expect(isDateTime(text)).toBe(expected);
  });
});
