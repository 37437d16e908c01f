/**
 * The "runtime compile" baseline: Ajv compiling the AdCP schemas on first use, as the official
 * SDKs do, with the options adcp-decode's own build uses (scripts/generate/validators.ts createAjv: strict,
 * AdCP's annotation keywords registered, ajv-formats in full mode, first error only), so that the
 * only difference from adcp-decode's validators is *when* the code is generated. createAjv is not
 * exported, so its options are mirrored here (minus `code.source`, which only keeps the source text
 * for the standalone writer); test/bench/bench.test.ts checks that this validator and the generated one
 * give the same verdicts on the benchmark payloads.
 *
 * Plain JavaScript so that cold-start child processes run it with bare `node` (no TypeScript loader
 * in the measured time).
 */
import AjvModule from 'ajv';
import addFormatsModule from 'ajv-formats';

const Ajv = AjvModule.default ?? AjvModule;
const addFormats = addFormatsModule.default ?? addFormatsModule;

/**
 * @param {readonly string[]} keywords ANNOTATION_KEYWORDS of scripts/generate/validators.ts
 * @param {boolean} [allErrors]
 */
export function createRuntimeAjv(keywords, allErrors = false) {
  const ajv = new Ajv({
    allErrors,
    strict: true,
    strictTypes: 'log',
    strictTuples: 'log',
    strictRequired: false,
    code: { esm: false, lines: false, optimize: true },
    logger: {
      log: () => undefined,
      warn: () => undefined,
      error: (...args) => {
        throw new Error(String(args[0]));
      },
    },
  });
  addFormats(ajv);
  for (const keyword of keywords) ajv.addKeyword({ keyword, schemaType: ['object', 'array', 'string', 'boolean', 'number'] });
  return ajv;
}

/**
 * Adds every schema of a bundle (see bench/schemas.ts writeRuntimeBundle) and compiles the one
 * with `id`, with everything it references.
 *
 * @param {{ keywords: string[], schemas: Array<{ id: string, schema: object }> }} bundle
 * @param {string} id
 */
export function compileFromBundle(bundle, id, allErrors = false) {
  const ajv = createRuntimeAjv(bundle.keywords, allErrors);
  for (const { id: sid, schema } of bundle.schemas) ajv.addSchema(schema, sid);
  const validate = ajv.getSchema(id);
  if (validate === undefined) throw new Error(`runtime-ajv: no schema ${id}`);
  return validate;
}
