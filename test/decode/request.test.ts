/**
 * Option `request`: the checks an answer gets from the request it answers. `context` comes back
 * unchanged (both releases: core/context.json "echoed unchanged in responses", and every response
 * schema declares it), on final and async answers alike, over MCP and A2A; the served
 * `adcp_version` is one the stamp allows (versioning.mdx's negotiation rules, table below); an
 * unannounced answer is judged by the stamped release; the request is for the task decoded and its
 * stamps agree with a pinned version (else INVALID_OPTION, the caller's fault). A property: any
 * answer whose context differs from the request's is refused, one that echoes it is accepted.
 * And `replayed: true` is surfaced on safeDecode's success.
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { createDecoder, type DecodeOptions, decode, safeDecode } from '../../src/decode/decode.js';
import { firstDifference } from '../../src/decode/first-difference.js';
import { checkAnswer, checkRequest } from '../../src/decode/request-checks.js';
import { DecodeError, VersionMismatchError } from '../../src/errors/errors.js';
import * as v31 from '../../src/generated/v3_1/pinned.js';
import { resolveOptions } from '../../src/options/resolve-options.js';
import type { SentRequest } from '../../src/options/sent-request.js';
import type { Version } from '../../src/schema/versions.js';
import { a2a10, mcp } from '../fixtures/envelopes.js';
import { payload } from '../fixtures/payloads.js';
import { V3_0, V3_1 } from '../fixtures/versions.js';
import { caughtAs, failureOf } from '../helpers.js';

type Json = Record<string, unknown>;

const SEED = 20_260_430;
const trace = { trace_id: 'buyer-trace-51c2' };

/** A create_media_buy request as sent, stamped for 3.1 unless told otherwise. */
function buy(args: Json = {}): SentRequest {
  return { task: 'create_media_buy', args: { adcp_version: '3.1', adcp_major_version: 3, context: trace, ...args } };
}

/** The 3.1 create_media_buy answer, with members replaced (`undefined` removes one). */
function answer(changes: Json = {}): Json {
  const body: Json = { ...payload('3.1/create_media_buy.valid'), ...changes };
  for (const [key, value] of Object.entries(changes)) if (value === undefined) delete body[key];
  return body;
}

function refused(input: unknown, options: DecodeOptions): DecodeError {
  return failureOf('create_media_buy', input, options);
}

describe('context comes back unchanged', () => {
  test.each([
    ['the same object', trace],
    ['its members in another order', { b: [1, { c: null }], a: 'x' }],
    ['nested values, arrays and numbers as JSON has them', { ui: { tab: 3, tags: ['ctv', 'q3'] }, ratio: 0.25, ok: true, none: null }],
  ])('%s: decodes', (_name, context) => {
    const sent = buy({ context: JSON.parse(JSON.stringify(context)) });
    expect(decode('create_media_buy', mcp.structured(answer({ context })), { request: sent })).toEqual(answer({ context }));
  });

  test('a member the request left undefined was never sent, so it is not expected back', () => {
    const request = buy({ context: { trace_id: 'buyer-trace-51c2', debug: undefined } });
    expect(safeDecode('create_media_buy', mcp.structured(answer()), { request })).toMatchObject({ success: true });
  });

  test.each([
    ['missing', answer({ context: undefined }), '/context'],
    ['a member altered', answer({ context: { trace_id: 'buyer-trace-51c3' } }), '/context/trace_id'],
    ['a member added', answer({ context: { ...trace, seller_note: 'x' } }), '/context/seller_note'],
    ['a member dropped', answer({ context: {} }), '/context/trace_id'],
    ['a member of another type', answer({ context: { trace_id: 51 } }), '/context/trace_id'],
  ])('%s: CONTEXT_MISMATCH at its pointer', (_name, body, path) => {
    expect(refused(mcp.structured(body), { request: buy() })).toMatchObject({ code: 'CONTEXT_MISMATCH', task: 'create_media_buy', path });
  });

  test('a context the request never sent is no echo', () => {
    const request = buy({ context: undefined });
    expect(refused(mcp.structured(answer()), { request })).toMatchObject({ code: 'CONTEXT_MISMATCH', path: '/context' });
    expect(safeDecode('create_media_buy', mcp.structured(answer({ context: undefined })), { request })).toMatchObject({ success: true });
  });

  test('the messages', () => {
    expect(refused(mcp.structured(answer({ context: undefined })), { request: buy() }).message).toMatchInlineSnapshot(
      `"expected the create_media_buy answer to echo the request's context unchanged; it has none"`,
    );
    expect(refused(mcp.structured(answer({ context: { trace_id: 51 } })), { request: buy() }).message).toMatchInlineSnapshot(
      `"expected the create_media_buy answer to echo the request's context unchanged; at /context/trace_id the request sent string (16 chars), the answer holds number"`,
    );
  });

  test('an async answer (submitted) and an A2A answer are checked too', () => {
    const submitted = { ...payload('3.1/create_media_buy.submitted') };
    expect(refused(mcp.structured(submitted), { request: buy() })).toMatchObject({ code: 'CONTEXT_MISMATCH' });
    expect(safeDecode('create_media_buy', mcp.structured({ ...submitted, context: trace }), { request: buy() })).toMatchObject({
      success: true,
    });
    const a2a = a2a10.taskEnvelope('TASK_STATE_COMPLETED', answer({ context: { trace_id: 'other' } }));
    expect(refused(a2a, { request: buy() })).toMatchObject({ code: 'CONTEXT_MISMATCH' });
  });

  test('both releases: a 3.0 answer must echo it too', () => {
    const request: SentRequest = { task: 'get_products', args: { adcp_version: '3.0', context: { ui: 'planner' } } };
    const body = payload('3.0/get_products.valid');
    expect(failureOf('get_products', mcp.structured(body), { request })).toMatchObject({ code: 'CONTEXT_MISMATCH', version: undefined });
    expect(safeDecode('get_products', mcp.structured({ ...body, context: { ui: 'planner' } }), { request })).toMatchObject({
      success: true,
      version: V3_0,
    });
  });
});

describe('context: the property', () => {
  const key = fc.string({ maxLength: 8 }).filter((k) => k !== '__proto__' && k !== 'constructor');
  const context = fc.dictionary(key, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 5 });
  const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

  test('any answer whose context differs from the request’s is refused; one that echoes it is accepted', () => {
    fc.assert(
      fc.property(context, context, (sent, echoed) => {
        const request = buy({ context: sent });
        const result = safeDecode('create_media_buy', mcp.structured(answer({ context: asJson(echoed) })), { request });
        const same = isDeepStrictEqual(asJson(sent), asJson(echoed));
        if (same) expect(result.success).toBe(true);
        else expect(result).toMatchObject({ success: false, error: { code: 'CONTEXT_MISMATCH' } });
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  test('an echo (a JSON copy, members reversed) is accepted, and any one-member change of it refused', () => {
    const change = fc.constantFrom('alter', 'add', 'drop');
    fc.assert(
      fc.property(context, change, (sent, how) => {
        const copy = Object.fromEntries(Object.entries(asJson(sent) as Json).reverse());
        const request = buy({ context: sent });
        expect(safeDecode('create_media_buy', mcp.structured(answer({ context: copy })), { request })).toMatchObject({ success: true });
        const keys = Object.keys(copy);
        const changed: Json = { ...copy };
        if (how === 'add' || keys.length === 0) changed['\u0000added'] = 1;
        else if (how === 'drop') delete changed[keys[0] as string];
        else changed[keys[0] as string] = { altered: [copy[keys[0] as string]] };
        const result = safeDecode('create_media_buy', mcp.structured(answer({ context: changed })), { request });
        expect(result).toMatchObject({ success: false, error: { code: 'CONTEXT_MISMATCH' } });
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  test('firstDifference agrees with deep equality of the JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.jsonValue({ maxDepth: 4 }), (a, b) => {
        expect(firstDifference(asJson(a), asJson(b)) === undefined).toBe(isDeepStrictEqual(asJson(a), asJson(b)));
      }),
      { seed: SEED, numRuns: 500 },
    );
  });
});

describe('the served adcp_version against the stamp', () => {
  // [stamped adcp_version, stamped adcp_major_version, served, outcome: a bundled version or an error code]
  test.each([
    ['3.1', 3, '3.1', V3_1],
    ['3.1', 3, '3.0', V3_0], // a downshift the spec allows, judged by the release served
    ['3.1', 3, '3.2', 'VERSION_MISMATCH'], // newer than the pin
    ['3.0', 3, '3.1', 'VERSION_MISMATCH'],
    ['3.1', 3, '4.0', 'VERSION_MISMATCH'], // another major
    ['3.1', 3, '3.1-beta', 'VERSION_MISMATCH'], // a release pin is never served by a pre-release
    ['3.1-beta', 3, '3.1', 'VERSION_MISMATCH'], // a pre-release pin is matched exactly
    ['3.1-beta', 3, '3.1-beta', 'RELEASE_NOT_LOADED'], // allowed, but no such pre-release is loaded
    ['3.1', 3, '3.1.2', 'VERSION_MISMATCH'], // no patch on the wire
    ['3.1', 3, 31, 'VERSION_MISMATCH'],
    [undefined, 3, '3.0', V3_0], // a major-only stamp: any release of it
    [undefined, 3, '4.1', 'VERSION_MISMATCH'],
    ['3.1', 3, undefined, V3_1], // a 3.0 seller announces nothing: the stamp judges
    ['3.0', 3, undefined, V3_0],
    [undefined, undefined, '3.1', V3_1], // nothing stamped: nothing to compare
  ])('stamped %s (major %s), served %s: %s', (release, major, served, outcome) => {
    const body = outcome === V3_0 ? payload('3.0/create_media_buy.valid') : answer();
    const request: SentRequest = {
      task: 'create_media_buy',
      args: { ...(release === undefined ? {} : { adcp_version: release }), ...(major === undefined ? {} : { adcp_major_version: major }) },
    };
    const input = mcp.structured({ ...body, adcp_version: served, context: undefined });
    const result = safeDecode('create_media_buy', JSON.parse(JSON.stringify(input)), { request });
    if (outcome.includes('.')) expect(result).toMatchObject({ success: true, version: outcome });
    else expect(result).toMatchObject({ success: false, error: { code: outcome } });
  });

  test('VERSION_MISMATCH carries what was asked and what was served', () => {
    const e = caughtAs(VersionMismatchError, () =>
      decode('create_media_buy', mcp.structured(answer({ adcp_version: '3.2\u001b[2J' })), { request: buy() }),
    );
    expect(e).toMatchObject({ code: 'VERSION_MISMATCH', requested: '3.1', served: '3.2\\u001b[2J', path: '/adcp_version' });
    expect(e.message).toMatchInlineSnapshot(
      `"expected the create_media_buy answer's adcp_version to be "3.1" or a lower 3.x release, as the request stamped; got "3.2\\u001b[2J", not a release-precision version"`,
    );
  });

  test('a pinned call: a downshift it cannot judge is UNSUPPORTED_VERSION, not the seller’s fault', () => {
    const body = { ...payload('3.0/create_media_buy.valid'), context: trace };
    const e = failureOf('create_media_buy', mcp.structured(body), { version: '3.1', request: buy() });
    expect(e).toMatchObject({ code: 'UNSUPPORTED_VERSION', path: '/adcp_version' });
    expect(e.message).toMatchInlineSnapshot(
      `"the seller served AdCP "3.0", a downshift from the request's "3.1" that the spec allows, but this call is pinned to ${V3_1}: decode with version 'auto', or pin the release the seller speaks (decoderFor)"`,
    );
    // A request that stamps only its major (a 3.0 request) names the major, never "undefined".
    const majorOnly: SentRequest = { task: 'create_media_buy', args: { adcp_major_version: 3, context: trace } };
    const other = failureOf('create_media_buy', mcp.structured({ ...body, adcp_version: '3.1' }), { version: '3.0', request: majorOnly });
    expect(other.message).toContain(`a downshift from the request's major 3 that the spec allows, but this call is pinned to ${V3_0}`);
  });
});

describe('a call pinned to a pre-release', () => {
  // A generated module's version (3.2.0-beta.6 is no bundled one): these checks read the version alone.
  const version = '3.2.0-beta.6' as Version;
  const request = { task: 'list_products', args: { adcp_version: '3.2-beta.6', adcp_major_version: 3 } };

  test('its request stamps the pin kept whole, and an answer serving it is that release, no downshift', () => {
    expect(() => checkRequest('list_products', request, version)).not.toThrow();
    const options = resolveOptions({ request }, { who: 'decode' });
    expect(() => checkAnswer({ task: 'list_products', options, version }, { adcp_version: '3.2-beta.6' })).not.toThrow();
  });

  test('a request stamping "3.2" is not one of its requests: a release pin is not the pre-release', () => {
    const e = caughtAs(DecodeError, () => checkRequest('list_products', { task: 'list_products', args: { adcp_version: '3.2' } }, version));
    expect(e).toMatchObject({ code: 'INVALID_OPTION' });
    expect(e.message).toContain('stamp "3.2-beta.6"');
  });
});

describe('the request itself (the caller’s faults: INVALID_OPTION)', () => {
  const ok = mcp.structured(answer());
  test.each([
    ['another task', { task: 'update_media_buy', args: {} }],
    ['not an object', 'create_media_buy'],
    ['a task that is not a string', { task: 7, args: {} }],
    ['args that are not an object', { task: 'create_media_buy', args: [] }],
    ['a patch on adcp_version', buy({ adcp_version: '3.1.2' })],
    ['a major that is not an integer', buy({ adcp_major_version: '3' })],
    ['stamps that disagree', buy({ adcp_major_version: 4 })],
    ['a context that is not JSON data', buy({ context: { n: 10n } })],
  ])('%s', (_name, request) => {
    expect(refused(ok, { request: request as SentRequest })).toMatchObject({ code: 'INVALID_OPTION', task: 'create_media_buy' });
  });

  test('a stamp that is not the pinned release', () => {
    const e = refused(ok, { version: '3.1', request: buy({ adcp_version: '3.0' }) });
    expect(e.message).toMatchInlineSnapshot(
      `"option request stamps AdCP 3.0, but this call is pinned to ${V3_1}: stamp "3.1", or pin the version the request speaks"`,
    );
  });

  test('a request is per call: createDecoder refuses it as a default', () => {
    expect(caughtAs(DecodeError, () => createDecoder({ request: buy() }))).toMatchObject({ code: 'INVALID_OPTION' });
    const seller = createDecoder({ version: '3.1' });
    expect(seller.safeDecode('create_media_buy', ok, { request: buy() })).toMatchObject({ success: true });
    expect(seller.safeDecode('create_media_buy', mcp.structured(answer({ context: undefined })), { request: buy() })).toMatchObject({
      success: false,
      error: { code: 'CONTEXT_MISMATCH' },
    });
  });

  test('a pinned import checks it the same way', () => {
    expect(v31.safeDecode('create_media_buy', ok, { request: buy() })).toMatchObject({ success: true });
    expect(v31.safeDecode('create_media_buy', mcp.structured(answer({ context: {} })), { request: buy() })).toMatchObject({
      success: false,
      error: { code: 'CONTEXT_MISMATCH' },
    });
  });

  test('the request is read once: a frozen request, or one with getters, is never read again', () => {
    let reads = 0;
    const request = Object.freeze({
      get task() {
        reads++;
        return 'create_media_buy';
      },
      args: Object.freeze({ adcp_version: '3.1', context: trace }),
    });
    expect(safeDecode('create_media_buy', ok, { request })).toMatchObject({ success: true });
    expect(reads).toBe(1);
  });
});

describe('replayed: surfaced, never dropped', () => {
  test('replayed: true is on safeDecode’s success and stays in the data', () => {
    const body = answer({ replayed: true });
    const result = safeDecode('create_media_buy', mcp.structured(body));
    expect(result).toEqual({ success: true, data: body, version: V3_1, replayed: true });
    expect(decode('create_media_buy', mcp.structured(body))).toHaveProperty('replayed', true);
  });

  test.each([
    ['false', false],
    ['absent', undefined],
  ])('replayed %s: no replayed member on the result', (_name, replayed) => {
    const result = safeDecode('create_media_buy', mcp.structured(answer({ replayed })));
    expect(result.success && 'replayed' in result).toBe(false);
  });

  test('a replayed that is not a boolean is SCHEMA_MISMATCH against the envelope', () => {
    const e = failureOf('create_media_buy', mcp.structured(answer({ replayed: 'true' })));
    expect(e).toMatchObject({ code: 'SCHEMA_MISMATCH', issues: [{ path: '/replayed', keyword: 'type' }] });
  });

  test('a pinned decoder surfaces it too', () => {
    expect(v31.safeDecode('create_media_buy', mcp.structured(answer({ replayed: true })))).toMatchObject({ replayed: true });
  });
});
