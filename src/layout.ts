/**
 * Where the modules that generated code, the build and the validator loader reach by path sit,
 * relative to src/ (dist/ mirrors it): codegen writes the generated modules' imports from this
 * table, bundle-dist keeps the runtime files it names and builds the loaders in place, and the
 * loader finds the generated folder by it. Moving one of these files is a change here, and
 * everything that reaches it follows (package.json#imports and tsconfig.json's `paths` name the
 * loaders' folder too; bundle-dist checks package.json against this table).
 */
export const LAYOUT = {
  /** The generated folder (git-ignored, written by `npm run generate`). */
  generated: 'generated',
  /** The validator code the releases' entry modules share, one module per chunk (loaded by path). */
  validatorChunks: 'generated/chunks',
  /** The helpers the generated validator modules import (plain JavaScript, loaded by path). */
  validatorRuntime: 'validate/runtime/index.js',
  /** The generate command, loaded by the CLI for that command only: an entry of its own, which reads the package's version relative to itself. */
  generateCommand: 'generate/command.js',
  /** The folder of `#validator-loader`'s targets (node.js, default.js), which load validator modules relative to themselves. */
  validatorLoaders: 'validate/loader',
  /** What the generated modules import from the hand-written code. */
  pinned: 'decode/pinned.js',
  validators: 'validate/validators.js',
  final: 'decode/final.js',
  extra: 'decode/extra.js',
  responseTypes: 'schema/response-types.js',
  tables: 'schema/tables.js',
  release: 'schema/release.js',
  errors: 'errors/errors.js',
  format: 'errors/format.js',
  sellerErrors: 'errors/seller-errors.js',
  sentRequest: 'options/sent-request.js',
  options: 'options/options.js',
  encodeTypes: 'encode/request.js',
  idempotency: 'encode/idempotency.js',
  taskHandle: 'decode/task-handle.js',
} as const;
