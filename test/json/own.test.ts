/**
 * src/json/own.ts: the own-property reads and the one statement of the prototype-key rule, against
 * secure-json-parse's refusals on parsed objects, and on in-process members JSON never makes
 * (non-enumerable, on arrays, behind a Proxy).
 */
import { describe, expect, test } from 'vitest';
import { hasOwn, isObject, own, prototypeKey, prototypeMember, prototypePolluted } from '../../src/json/own.js';

describe('prototypeMember: the rule', () => {
  test.each<[string, unknown, boolean]>([
    ['__proto__', {}, true],
    ['__proto__', 1, true],
    ['constructor', { prototype: {} }, true],
    ['constructor', { prototype: null }, true],
    ['constructor', [], false],
    ['constructor', 'x', false],
    ['constructor', null, false],
    ['constructor', { name: 'x' }, false],
    ['prototype', {}, false],
    ['__proto', {}, false],
  ])('%s holding %o: %s', (key, value, unsafe) => {
    expect(prototypeMember(key, value)).toBe(unsafe);
  });

  test('an inherited prototype does not count: own members only', () => {
    expect(prototypeMember('constructor', Object.create({ prototype: {} }))).toBe(false);
  });
});

describe('prototypeKey: own members of any kind', () => {
  test('parsed objects and arrays', () => {
    expect(prototypeKey(JSON.parse('{"__proto__":{"x":1}}') as object)).toBe('__proto__');
    expect(prototypeKey(JSON.parse('{"constructor":{"prototype":{}}}') as object)).toBe('constructor');
    expect(prototypeKey(JSON.parse('{"constructor":"x","prototype":{}}') as object)).toBeUndefined();
    expect(prototypeKey({})).toBeUndefined();
  });

  test('non-enumerable members and arrays count too', () => {
    const hidden = {};
    Object.defineProperty(hidden, '__proto__', { value: {}, enumerable: false });
    expect(prototypeKey(hidden)).toBe('__proto__');
    const list = Object.defineProperty([1], 'constructor', { value: { prototype: {} }, enumerable: true });
    expect(prototypeKey(list)).toBe('constructor');
  });
});

describe('own reads', () => {
  test('inherited members are not read', () => {
    expect(hasOwn({}, 'toString')).toBe(false);
    expect(own({}, 'constructor')).toBeUndefined();
    expect(own({ a: 1 }, 'a')).toBe(1);
    expect(isObject({})).toBe(true);
    expect(isObject([])).toBe(false);
    expect(isObject(null)).toBe(false);
  });
});

describe('prototypePolluted: the probe the for...in walks read once', () => {
  test('false in a clean process; true while Object.prototype has an enumerable member, and a non-enumerable one does not count', () => {
    expect(prototypePolluted()).toBe(false);
    const proto = Object.prototype as Record<string, unknown>;
    Object.defineProperty(proto, 'hidden', { value: 1, enumerable: false, configurable: true });
    try {
      expect(prototypePolluted()).toBe(false);
      proto.polluted = 1;
      expect(prototypePolluted()).toBe(true);
    } finally {
      delete proto.polluted;
      delete proto.hidden;
    }
    expect(prototypePolluted()).toBe(false);
  });
});
