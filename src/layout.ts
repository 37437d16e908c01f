/**
 * Where the modules that generated code, the build and the validator loader reach by path sit,
 * relative to src/ (dist/ mirrors it): codegen writes the generated modules' imports from this
 * table, bundle-dist keeps the runtime files it names, and the loader finds the generated folder
 * by it. Moving one of these files is a change here, and everything that reaches it follows.
 */
export const LAYOUT = {
  /** The generated folder (git-ignored, written by `npm run generate`). */
  generated: 'generated',
  /** The validator code the releases' entry modules share, one module per chunk (loaded by path). */
  validatorChunks: 'generated/chunks',
  /** The helpers the generated validator modules import (plain JavaScript, loaded by path). */
  validatorRuntime: 'validate/runtime/index.js',
  /** What the generated modules import from the hand-written code. */
  pinned: 'decode/pinned.js',
  validators: 'validate/validators.js',
  final: 'decode/final.js',
  responseTypes: 'schema/response-types.js',
  tables: 'schema/tables.js',
  nodeLoader: 'node-validators.js',
} as const;
