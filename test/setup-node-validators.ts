/**
 * Tests import src/decode/decode.ts and src/validate/validators.ts directly, not the Node entry: install the
 * Node entry's first-use validator loading, as src/index.ts does.
 */
import '../src/node-validators.js';
