/**
 * The pinned imports (`adcp-decode/3.1`, `adcp-decode/3.0`, src/generated/<v>/pinned.ts) and
 * isFinal: a pinned decoder judges every payload by its own version, whatever `adcp_version` the
 * payload announces; the version cannot be overridden per call or per decoder; isFinal answers
 * the variant decode() judged a payload by; each entry holds what a buyer file needs (errors,
 * formatIssues, polling, recovery), bound to its release.
 */
import { describe, expect, expectTypeOf, test } from 'vitest';
import * as v30 from '../../src/generated/v3_0/pinned.js';
import * as v31 from '../../src/generated/v3_1/pinned.js';
import * as root from '../../src/index.js';
import { decode, isFinal, LimitError, SchemaMismatchError } from '../../src/index.js';
import { a2a10, mcp } from '../fixtures/envelopes.js';
import { payload } from '../fixtures/payloads.js';
import { V3_0, V3_1 } from '../fixtures/versions.js';
import { caughtAs } from '../helpers.js';

describe('a pinned decoder judges by its own version', () => {
  test('a payload of its version decodes; safeDecode names the version', () => {
    const body = payload('3.1/get_products.valid');
    expect(v31.decode('get_products', mcp.structured(body))).toEqual(body);
    expect(v31.safeDecode('get_products', mcp.structured(body))).toEqual({ success: true, data: body, version: V3_1 });
    const old = payload('3.0/get_media_buys.valid');
    expect(v30.safeDecode('get_media_buys', mcp.structured(old))).toEqual({ success: true, data: old, version: V3_0 });
  });

  test('a payload announcing another release is judged by the pinned schemas, not the label', () => {
    // Valid under 3.1 though it says 3.0: decoded as 3.1 (auto would pick 3.0).
    const labelled = { ...payload('3.1/list_accounts.valid'), adcp_version: '3.0' };
    expect(v31.safeDecode('list_accounts', mcp.structured(labelled))).toEqual({ success: true, data: labelled, version: V3_1 });
    // A 3.0 payload that is not a valid 3.1 one fails, and the error names 3.1.
    const old = { ...payload('3.0/list_accounts.valid'), adcp_version: '3.0' };
    const auto = decode('list_accounts', mcp.structured(old));
    expect(auto).toEqual(old);
    const error = caughtAs(Error, () => v31.decode('list_accounts', mcp.structured({ ...old, accounts: [{}] })));
    expect(error).toBeInstanceOf(SchemaMismatchError);
    expect(error).toMatchObject({ code: 'SCHEMA_MISMATCH', version: V3_1, task: 'list_accounts' });
    // Even a release that is not bundled is only a label to a pinned decoder.
    const future = { ...payload('3.1/list_accounts.valid'), adcp_version: '9.9' };
    expect(v31.decode('list_accounts', mcp.structured(future))).toEqual(future);
  });

  test('a task the version does not have is UNKNOWN_TASK', () => {
    // list_tasks is 3.1-only; the types reject it too, so a JavaScript caller is what reaches here.
    const call: (task: string, input: unknown) => unknown = v30.decode as never;
    expect(caughtAs(Error, () => call('list_tasks', {}))).toMatchObject({ code: 'UNKNOWN_TASK', version: V3_0 });
  });

  test('the version cannot be overridden per call, by a decoder, or to auto', () => {
    const body = mcp.structured(payload('3.1/get_products.valid'));
    const options: unknown = { version: '3.0' };
    const call = v31.decode as (task: string, input: unknown, options?: unknown) => unknown;
    expect(caughtAs(Error, () => call('get_products', body, options))).toMatchObject({ code: 'INVALID_OPTION' });
    expect(caughtAs(Error, () => call('get_products', body, { version: 'auto' }))).toMatchObject({ code: 'INVALID_OPTION' });
    expect((caughtAs(Error, () => call('get_products', body, options)) as Error).message).toMatchInlineSnapshot(
      `"decode: option version must be left out: this decoder decodes AdCP 3.1.19 only; got "3.0.26""`,
    );
    const safe = v31.safeDecode as (task: string, input: unknown, options?: unknown) => unknown;
    expect(safe('get_products', body, options)).toMatchObject({ success: false, error: { code: 'INVALID_OPTION' } });
    // A call's refused options name the call, as the unpinned decode's do: its task and the pinned version.
    for (const bad of [options, { maxDepth: -1 }, { transport: 'smtp' }]) {
      const context = { code: 'INVALID_OPTION', task: 'get_products', version: V3_1 };
      expect(caughtAs(Error, () => call('get_products', body, bad))).toMatchObject(context);
      expect(safe('get_products', body, bad)).toMatchObject({ success: false, error: context });
    }
    const poll = v31.decodeTaskStatus as (input: unknown, options?: unknown) => unknown;
    expect(caughtAs(Error, () => poll(body, options))).toMatchObject({ code: 'INVALID_OPTION', task: 'task status', version: V3_1 });
    expect(caughtAs(Error, () => poll(body, { handle: 7 }))).toMatchObject({ code: 'INVALID_OPTION', task: 'task status' });
    const create = v31.createDecoder as (options: unknown) => unknown;
    expect(caughtAs(Error, () => create(options))).toMatchObject({ code: 'INVALID_OPTION' });
    // Naming the pinned version itself is allowed (it changes nothing).
    expect(call('get_products', body, { version: '3.1' })).toEqual(body.structuredContent);
  });

  test('createDecoder binds options once; a call overrides them; a bad default fails at once', () => {
    const body = mcp.structured(payload('3.1/get_products.valid'));
    const small = v31.createDecoder({ maxBytes: 10 });
    expect(caughtAs(Error, () => small.decode('get_products', mcp.text(JSON.stringify(body.structuredContent))))).toBeInstanceOf(
      LimitError,
    );
    expect(small.decode('get_products', mcp.text(JSON.stringify(body.structuredContent)), { maxBytes: 1 << 20 })).toEqual(
      body.structuredContent,
    );
    // A per-call undefined leaves the decoder's bound in place (it caps structuredContent's strings too).
    expect(small.safeDecode('get_products', body, { maxBytes: undefined })).toMatchObject({ success: false, error: { code: 'TOO_LARGE' } });
    expect(caughtAs(Error, () => v31.createDecoder({ maxDepth: -1 }))).toMatchObject({ code: 'INVALID_OPTION' });
  });
});

describe('isFinal answers the variant decode() judged a payload by', () => {
  test.each([
    ['a final response', 'get_products', () => mcp.structured(payload('3.1/get_products.valid')), true],
    ['a final response without status', 'create_media_buy', () => mcp.structured(payload('3.1/create_media_buy.valid')), true],
    ['working', 'create_media_buy', () => mcp.structured(payload('3.1/create_media_buy.working')), false],
    ['submitted', 'get_products', () => mcp.structured(payload('3.1/get_products.submitted')), false],
    ['input-required', 'get_products', () => mcp.structured(payload('3.1/get_products.input-required')), false],
    // get_media_buys has no async schemas: a 'working' status is judged by (and is) its final response.
    [
      'an async status on a task without that async schema',
      'get_media_buys',
      () => mcp.structured({ ...payload('3.1/get_media_buys.valid'), status: 'working' }),
      true,
    ],
    // Over A2A a snapshot without status, sent in the working state, was judged as the working variant.
    [
      'an A2A progress snapshot without status',
      'create_media_buy',
      () => a2a10.statusUpdate('TASK_STATE_WORKING', { percentage: 40 }),
      false,
    ],
  ] as const)('%s', (_what, task, input, final) => {
    const data: object = decode(task, input());
    expect(isFinal(data)).toBe(final);
  });

  test('a value decode() did not return is judged by its status alone', () => {
    const working = decode('create_media_buy', mcp.structured(payload('3.1/create_media_buy.working')));
    expect(isFinal({ ...working })).toBe(false);
    expect(isFinal({ ...payload('3.1/get_media_buys.valid'), status: 'working' })).toBe(false);
    expect(isFinal({ products: [] })).toBe(true);
    expect(isFinal({ status: 'completed' })).toBe(true);
    // status is read as data only: a getter is not called, and the value is not claimed final.
    let called = false;
    const getter = Object.defineProperty({}, 'status', { get: () => ((called = true), 'completed'), enumerable: true });
    expect(isFinal(getter)).toBe(false);
    expect(called).toBe(false);
    const hostile = new Proxy(
      {},
      {
        getOwnPropertyDescriptor: () => {
          throw new Error('trap');
        },
      },
    );
    expect(isFinal(hostile)).toBe(false);
  });

  test('each decode records its own result', () => {
    const body = { ...payload('3.1/get_media_buys.valid'), status: 'working' };
    // get_media_buys has no working schema: its result is final whatever status says.
    expect(isFinal(decode('get_media_buys', mcp.structured(body)))).toBe(true);
    // Decoded as a task that has a working schema, it is that task's working variant.
    expect(isFinal(decode('create_media_buy', mcp.structured(body)))).toBe(false);
    // A failed decode records nothing: judged by status alone (had the response schema's verdict been kept, true).
    const bad = { status: 'working', message: 'Still compiling the report' };
    expect(() => decode('get_media_buys', mcp.structured(bad))).toThrow(SchemaMismatchError);
    expect(isFinal(bad)).toBe(false);
  });
});

describe('a pinned entry holds what a buyer file needs, bound to its release', () => {
  test('the errors and formatIssues are the root ones (instanceof holds across imports)', () => {
    for (const entry of [v30, v31]) {
      expect(entry.DecodeError).toBe(root.DecodeError);
      expect(entry.LimitError).toBe(root.LimitError);
      expect(entry.SchemaMismatchError).toBe(root.SchemaMismatchError);
      expect(entry.TaskFailedError).toBe(root.TaskFailedError);
      expect(entry.formatIssues).toBe(root.formatIssues);
    }
    const failed = v31.safeDecode('get_products', mcp.structured({ products: [{}] }));
    if (failed.success) throw new Error('expected a failure');
    expect(failed.error).toBeInstanceOf(v31.SchemaMismatchError);
    expect(v31.formatIssues(failed.error)).toContain('/products/0');
  });

  const polled = {
    task_id: 'task_cmb_4821',
    task_type: 'create_media_buy',
    protocol: 'media-buy',
    status: 'submitted',
    created_at: '2026-04-18T09:55:00Z',
    updated_at: '2026-04-18T09:59:58Z',
  };

  test('decodeTaskStatus polls by its release: get_task_status for 3.1, tasks/get for 3.0; the version is fixed', () => {
    expect(v31.decodeTaskStatus(mcp.structured(polled))).toMatchObject({ status: 'submitted', data: null, version: V3_1 });
    const jsonRpc = { jsonrpc: '2.0', id: 1, result: polled };
    expect(v30.decodeTaskStatus(jsonRpc)).toMatchObject({ taskId: 'task_cmb_4821', version: V3_0 });
    // The root default (3.1) would read the same JSON-RPC success as a get_task_status answer, and refuse it.
    expect(root.safeDecode('get_task_status', jsonRpc).success).toBe(false);
    const call = v30.decodeTaskStatus as (input: unknown, options?: unknown) => unknown;
    expect(caughtAs(Error, () => call(jsonRpc, { version: '3.1' }))).toMatchObject({ code: 'INVALID_OPTION' });
    expect(
      caughtAs(Error, () =>
        v30.decodeTaskStatus({ ...polled, status: 'failed', error: { code: 'RATE_LIMITED', message: 'too many requests' } }),
      ),
    ).toBeInstanceOf(v30.TaskFailedError);
    // Typed by its release alone: narrowing taskType types data by 3.0's responses.
    const task = v30.decodeTaskStatus({ ...polled, status: 'completed', result: payload('3.0/create_media_buy.valid') });
    expect(task.taskType).toBe('create_media_buy');
    if (task.taskType === 'create_media_buy') expectTypeOf(task.data).toEqualTypeOf<v30.Response<'create_media_buy'> | null>();
    expectTypeOf(task.version).toEqualTypeOf<V3_0>();
  });

  test("classifyRecovery reads its release's error-code table", () => {
    // A code 3.1 lists and 3.0 does not: each entry answers as the root does for its version.
    const error = { code: 'ACTION_NOT_ALLOWED' };
    expect(v31.classifyRecovery(error)).toEqual(root.classifyRecovery(error, V3_1));
    expect(v30.classifyRecovery(error)).toEqual(root.classifyRecovery(error, V3_0));
    expect(v31.classifyRecovery(error)).not.toEqual(v30.classifyRecovery(error));
    expect(v30.classifyRecovery(error, { unknownRecovery: 'transient' })).toEqual({ recovery: 'transient' });
  });

  test('preload loads its release', async () => {
    await expect(v30.preload(['get_signals'])).resolves.toBeUndefined();
    const call = v30.preload as (tasks: unknown) => Promise<void>;
    await expect(call('list_tasks')).rejects.toMatchObject({ code: 'UNKNOWN_TASK', version: V3_0 });
  });
});
