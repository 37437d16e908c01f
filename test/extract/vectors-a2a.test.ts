/**
 * Every vector of the AdCP `a2a-response-extraction.json` set through the A2A extractor.
 *
 * Vector fields: `response` is the Task / event / envelope; `expected_data` the extracted object or
 * `null`; `expected_error_type` (only `wrapper_detected`) means extraction throws that DecodeError
 * code (upper-cased); `status` is the normalized A2A state; `path` names where the algorithm looks
 * (`artifact`, `status_message`, or `none`). Readings:
 * - `path` is asserted against the reported source only when data is expected: `text-only-no-datapart`
 *   has path `artifact` and expects null.
 * - `status` is asserted whenever the response carries a `status.state`. The
 *   `a2a-1.0-stream-wrapped-artifact-update-no-state` vector says `working` but its `artifactUpdate`
 *   carries no state at all (the page: "its status.state is absent and step 1 returns null"), so
 *   there the extractor must report `no-state`.
 * - `proto-pollution-payload` expects the data with its `__proto__` key ("extraction succeeds but
 *   clients MUST NOT merge"): the extractor hands back a plain copy and refuses a prototype key
 *   with `UNSAFE_JSON` instead (a deliberate deviation, as for an MCP text item); the locator
 *   still finds the DataPart.
 */
import { describe, expect, test } from 'vitest';
import { DecodeError } from '../../src/errors/errors.js';
import { extractA2aResponse, locateA2aPayload } from '../../src/extract/a2a.js';
import { readVector } from '../fixtures/vectors.js';
import { thrown } from '../helpers.js';

interface A2aVector {
  readonly id: string;
  readonly description: string;
  readonly status: string;
  readonly path: 'artifact' | 'status_message' | 'none';
  readonly response: Record<string, unknown>;
  readonly expected_data: Record<string, unknown> | null;
  readonly expected_error_type?: string;
}

const vectors = readVector<{ vectors: A2aVector[] }>('a2a-response-extraction.json').vectors;

describe('a2a-response-extraction vectors', () => {
  test('the vector file holds all 31 vectors', () => {
    expect(vectors).toHaveLength(31);
  });

  test.each(vectors)('$id: $description', (vector) => {
    const location = locateA2aPayload(vector.response);

    if (vector.expected_error_type !== undefined) {
      const error = thrown(() => extractA2aResponse(vector.response));
      expect(error).toBeInstanceOf(DecodeError);
      expect((error as DecodeError).code).toBe(vector.expected_error_type.toUpperCase());
      expect(location.kind).toBe('wrapper');
      expect(vector.expected_data).toBeNull();
    } else if (vector.expected_data !== null && Object.hasOwn(vector.expected_data, '__proto__')) {
      expect(thrown(() => extractA2aResponse(vector.response))).toMatchObject({ code: 'UNSAFE_JSON', path: '/__proto__' });
    } else {
      const extracted = extractA2aResponse(vector.response);
      expect(extracted).toEqual(vector.expected_data);
      if (extracted !== null && location.kind === 'payload') expect(extracted).not.toBe(location.value);
    }

    if (location.kind === 'none' && location.reason === 'no-state') {
      expect(vector.path).toBe('none');
    } else {
      expect(location.kind === 'none' ? location.state : location.state).toBe(vector.status);
    }

    if (vector.expected_data !== null) {
      expect(location.kind).toBe('payload');
      if (location.kind === 'payload') {
        expect(location.source).toBe(vector.path === 'artifact' ? 'artifact' : 'status-message');
      }
    } else if (vector.expected_error_type === undefined) {
      expect(location.kind).toBe('none');
    }
  });
});
