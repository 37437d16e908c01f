/**
 * splitSchemaLiterals (scripts/generate/schema-literals.ts): a schema literal read only through
 * property paths becomes the values read, each once; one read whole stays whole; the readers read
 * the same values.
 */
import { expect, test } from 'vitest';
import { declarations } from '../../src/generate/declarations.js';
import { splitSchemaLiterals } from '../../src/generate/schema-literals.js';

const MODULE = [
  '"use strict";',
  'export const x0 = validate10;',
  'const schema11 = {"$id":"/s.json","properties":{"a":{"enum":["p","q"]},"b c":{"enum":["p","q"]},"d":{"const":{"k":1}}}};',
  'const schema12 = {"$id":"/t.json","enum":[1,2]};',
  'function validate11(data){return schema12.enum.includes(data) && schema12 !== null;}',
  'function validate10(data){if(!schema11.properties.a.enum.includes(data)){validate10.errors = [schema11.properties["b c"].enum, schema11.properties.d.const, schema11.properties.a.enum.length];return false;}return validate11(data);}',
].join('');

test('a literal read through paths becomes its values, each once; one read whole stays', () => {
  const out = splitSchemaLiterals(declarations(MODULE));
  const codes = [...out.declarations.values()].map((d) => d.code);
  expect(codes.filter((c) => c.startsWith('const schema'))).toEqual([
    'const schema13 = ["p","q"];',
    'const schema14 = {"k":1};',
    'const schema15 = 2;',
    'const schema12 = {"$id":"/t.json","enum":[1,2]};',
  ]);
  const validate10 = out.declarations.get('validate10')!;
  expect(validate10.code).toBe(
    'function validate10(data){if(!schema13.includes(data)){validate10.errors = [schema13, schema14, schema15];return false;}return validate11(data);}',
  );
  expect(validate10.uses).toEqual(['schema13', 'schema14', 'schema15', 'validate11']);
  expect(out.declarations.get('validate11')).toEqual(declarations(MODULE).declarations.get('validate11'));
  expect(out.exports).toEqual(new Map([['x0', 'validate10']]));
});

test('the readers compute what they computed with the whole literal', () => {
  const run = (m: ReturnType<typeof declarations>, data: unknown) => {
    const code = [...m.declarations.values()].map((d) => d.code).join('\n');
    const validate = new Function(`${code}\nreturn validate10;`)() as { (d: unknown): boolean; errors?: unknown };
    return [validate(data), validate.errors];
  };
  const before = declarations(MODULE);
  const after = splitSchemaLiterals(before);
  for (const data of ['p', 'q', 'r', 1, 2]) expect(run(after, data)).toEqual(run(before, data));
});
