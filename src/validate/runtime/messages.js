// @ts-check
/**
 * Ajv's error messages as functions of an error's keyword and params, so that the generated listing
 * validators need not carry them (derivedMessages, scripts/generate/rewrites.ts): 18,000 recorded
 * errors held 0.5 MB of message strings that these few templates rebuild, letter for letter, from
 * what each error already holds. Each entry copies the message Ajv 8 writes for its keyword
 * (ajv/lib/vocabularies/**: `message` of each KeywordErrorDefinition); codegen drops a message
 * only where this table gives back exactly the string Ajv's code would have built.
 */

/**
 * @typedef {Readonly<Record<string, unknown>>} Params An error's params, as Ajv builds them.
 * @typedef {string | ((params: Params) => string)} Message A keyword's message: fixed, or built from params.
 */

/** `must NOT have fewer than 3 items`: the bound keywords of length, items and properties. */
const bound = (/** @type {string} */ comparison, /** @type {string} */ unit) => (/** @type {Params} */ p) =>
  `must NOT have ${comparison} than ${p.limit} ${unit}`;

/** `must be >= 1`: minimum, maximum and their exclusive forms, whose params hold the comparison. */
const limit = (/** @type {Params} */ p) => `must be ${p.comparison} ${p.limit}`;

/**
 * Ajv's message of each draft-07 keyword (the AdCP schemas' draft), as Ajv 8 writes it; a keyword
 * not here keeps its message literal in the generated code.
 *
 * @type {ReadonlyMap<string, Message>}
 */
const MESSAGES = new Map(
  /** @type {Array<[string, Message]>} */ ([
    ['type', (p) => `must be ${p.type}`],
    ['required', (p) => `must have required property '${p.missingProperty}'`],
    ['additionalProperties', 'must NOT have additional properties'],
    ['propertyNames', 'property name must be valid'],
    ['dependencies', (p) => `must have ${p.depsCount === 1 ? 'property' : 'properties'} ${p.deps} when property ${p.property} is present`],
    ['minLength', bound('fewer', 'characters')],
    ['maxLength', bound('more', 'characters')],
    ['minItems', bound('fewer', 'items')],
    ['maxItems', bound('more', 'items')],
    ['minProperties', bound('fewer', 'properties')],
    ['maxProperties', bound('more', 'properties')],
    ['additionalItems', bound('more', 'items')],
    ['minimum', limit],
    ['maximum', limit],
    ['exclusiveMinimum', limit],
    ['exclusiveMaximum', limit],
    ['multipleOf', (p) => `must be multiple of ${p.multipleOf}`],
    ['format', (p) => `must match format "${p.format}"`],
    ['pattern', (p) => `must match pattern "${p.pattern}"`],
    ['enum', 'must be equal to one of the allowed values'],
    ['const', 'must be equal to constant'],
    ['uniqueItems', (p) => `must NOT have duplicate items (items ## ${p.j} and ${p.i} are identical)`],
    [
      'contains',
      (p) =>
        p.maxContains === undefined
          ? `must contain at least ${p.minContains} valid item(s)`
          : `must contain at least ${p.minContains} and no more than ${p.maxContains} valid item(s)`,
    ],
    ['anyOf', 'must match a schema in anyOf'],
    ['oneOf', 'must match exactly one schema in oneOf'],
    ['not', 'must NOT be valid'],
    ['if', (p) => `must match "${p.failingKeyword}" schema`],
    ['false schema', 'boolean schema is false'],
  ]),
);

/** The keywords the table gives a message for. */
export const MESSAGE_KEYWORDS = Object.freeze([...MESSAGES.keys()]);

/**
 * The params a message reads to choose its words rather than to print them: codegen drops a
 * message only when these hold literal values at its site (a printed param may be any expression).
 */
export const CHOOSING_PARAMS = Object.freeze(['depsCount', 'maxContains']);

/**
 * The message Ajv writes for an error of this keyword with these params.
 *
 * @param {string} keyword The error's keyword (`type`, `required`, `false schema`, ...).
 * @param {Params} params The error's params.
 * @returns {string | undefined} The message, or undefined for a keyword the table lacks.
 * @throws Never.
 * @example
 * errorMessage('minItems', { limit: 1 }); // 'must NOT have fewer than 1 items'
 */
export function errorMessage(keyword, params) {
  const message = MESSAGES.get(keyword);
  return typeof message === 'function' ? message(params) : message;
}
