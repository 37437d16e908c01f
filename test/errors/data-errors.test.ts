/**
 * The errors built from their data (LimitError, VersionMismatchError, NoCommonVersionError,
 * TaskMismatchError): for any data, the error holds each member as its field, keeps its name,
 * code, message and common options, and is a DecodeError.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import {
  DecodeError,
  type DecodeErrorOptions,
  LimitError,
  NoCommonVersionError,
  TaskMismatchError,
  VersionMismatchError,
} from '../../src/errors/errors.js';

const options = fc.record({ task: fc.string(), version: fc.string(), path: fc.string() }, { requiredKeys: [] });
const words = fc.array(fc.string(), { maxLength: 4 });

test('each data member is a field, beside the name, code, message and options', () => {
  fc.assert(
    fc.property(
      fc.string(),
      options,
      fc.string(),
      fc.string(),
      words,
      words,
      fc.nat(),
      fc.nat(),
      (message, given, a, b, listA, listB, limit, actual) => {
        const common: DecodeErrorOptions = given;
        const built: ReadonlyArray<readonly [DecodeError, string, string, object]> = [
          [
            new LimitError('TOO_DEEP', message, { unit: 'depth', limit, actual }, common),
            'LimitError',
            'TOO_DEEP',
            { unit: 'depth', limit, actual },
          ],
          [
            new VersionMismatchError(message, { requested: a, served: b }, common),
            'VersionMismatchError',
            'VERSION_MISMATCH',
            { requested: a, served: b },
          ],
          [
            new NoCommonVersionError(message, { sellerVersions: listA, bundledReleases: listB }, common),
            'NoCommonVersionError',
            'NO_COMMON_VERSION',
            { sellerVersions: listA, bundledReleases: listB },
          ],
          [
            new TaskMismatchError(message, { expected: a, received: b }, common),
            'TaskMismatchError',
            'TASK_MISMATCH',
            { expected: a, received: b },
          ],
        ];
        for (const [error, name, code, data] of built) {
          expect(error).toBeInstanceOf(DecodeError);
          expect(error).toMatchObject({ ...data, name, code, message, task: given.task, version: given.version, path: given.path });
        }
      },
    ),
    { numRuns: 100 },
  );
});
