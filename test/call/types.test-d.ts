/**
 * Type tests of callTask (adcp-decode/mcp, adcp-decode/a2a), run by tsc in vitest's typecheck
 * mode: the official SDK clients are accepted as they are; the arguments are typed by the task's
 * request schema in the version the options speak; the result is the task's response in the
 * version(s) decode judges by, with no cast anywhere.
 */
import type { Client as A2aSdkClient } from '@a2a-js/sdk-v1/client';
import type { Client as McpSdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { expectTypeOf } from 'vitest';
import * as a2a from '../../src/a2a/index.js';
import type { CALL_OPTION_KEYS } from '../../src/call/run.js';
import type { WAIT_OPTION_KEYS } from '../../src/call/wait-options.js';
import type { Decoded, DecodeError, DecodeOptions, Encoded, EncodedRequest, v3_1 } from '../../src/index.js';
import * as mcp from '../../src/mcp/index.js';
import type { DecodeOptionKey } from '../../src/options/resolve-options.js';
import { V3_1 } from '../fixtures/versions.js';

declare const mcpClient: McpSdkClient;
declare const a2aClient: A2aSdkClient;
declare const plan: v3_1.CreateMediaBuyRequest;
const brief = { buying_mode: 'brief', brief: 'CTV in Q3' } as const;
/** What decode('get_products', result, { version: '3.1' }) returns: the response or an async variant of 3.1. */
type Pinned31 = Decoded<'get_products', { version: '3.1' }>;

// The official clients are the parameters, as they are.
const asMcp: mcp.McpClient = mcpClient;
const asA2a: a2a.A2aClient = a2aClient;
expectTypeOf([asMcp, asA2a]).not.toBeAny();

// Pinned: in and out in 3.1.
expectTypeOf(await mcp.callTask(mcpClient, 'get_products', brief, { version: '3.1' })).toEqualTypeOf<Pinned31>();
expectTypeOf(await a2a.callTask(a2aClient, 'get_products', brief, { version: '3.1' })).toEqualTypeOf<Pinned31>();
expectTypeOf(await a2a.streamTask(a2aClient, 'get_products', brief, { version: V3_1 })).toEqualTypeOf<Pinned31>();
expectTypeOf(await mcp.callTask(mcpClient, 'get_products', brief, { version: '3.0' })).toEqualTypeOf<
  Decoded<'get_products', { version: '3.0' }>
>();

// No options: encoded in the default version, decoded as decode() does with 'auto' (either release).
expectTypeOf(await mcp.callTask(mcpClient, 'get_products', brief)).toEqualTypeOf<Decoded<'get_products'>>();

// The async variants narrow on status, as decode's do.
const buy = await mcp.callTask(mcpClient, 'create_media_buy', plan, { version: '3.1' });
if (buy.status === 'submitted') expectTypeOf(buy.task_id).toEqualTypeOf<string>();

// Arguments are the request type: a missing required member, a wrong value, an unknown task do not compile.
// @ts-expect-error buying_mode is required
await mcp.callTask(mcpClient, 'get_products', { brief: 'CTV' }, { version: '3.1' });
// @ts-expect-error not a buying mode
await a2a.callTask(a2aClient, 'get_products', { buying_mode: 'whatever', brief: 'CTV' }, { version: '3.1' });
// @ts-expect-error not an AdCP task
await mcp.callTask(mcpClient, 'get_everything', brief);
// @ts-expect-error transport and request are callTask's own to set
await mcp.callTask(mcpClient, 'get_products', brief, { transport: 'payload' });

// safeCallTask: the request sent, frozen and typed, beside the data; or a DecodeError.
const safe = await mcp.safeCallTask(mcpClient, 'get_products', brief, { version: '3.1' });
if (safe.success) {
  expectTypeOf(safe.data).toEqualTypeOf<Pinned31>();
  expectTypeOf(safe.request).toExtend<EncodedRequest<'get_products', V3_1>>();
  expectTypeOf(safe.request.args.buying_mode).toEqualTypeOf<'brief' | 'wholesale' | 'refine'>();
} else expectTypeOf(safe.error).toEqualTypeOf<DecodeError>();

// The A2A message is a request the SDK client takes.
expectTypeOf(a2a.a2aRequest({ task: 'get_products', args: brief })).toExtend<Parameters<A2aSdkClient['sendMessage']>[0]>();

// What encode() returned is a call's argument as is: the request form, and its frozen args in the task form.
declare const encoded: Encoded<'create_media_buy', { version: '3.1' }>;
expectTypeOf(await mcp.callTask(mcpClient, encoded)).toEqualTypeOf<Decoded<'create_media_buy', { version: V3_1 }>>();
expectTypeOf(await a2a.callTask(a2aClient, encoded.task, encoded.args, { version: '3.1' })).toEqualTypeOf<
  Decoded<'create_media_buy', { version: '3.1' }>
>();
const again = await a2a.safeCallTask(a2aClient, encoded, { retry: { attempts: 3 } });
// The request comes back whatever the end: on a failure too, for the retry the caller makes.
if (!again.success) expectTypeOf(again.request).toEqualTypeOf<Encoded<'create_media_buy', { version: V3_1 }> | undefined>();
// @ts-expect-error a hand-built object is not what encode() returned for that task
await mcp.callTask(mcpClient, { task: 'create_media_buy', version: V3_1, release: '3.1', args: { brief: 1 } });

// A pinned import's encode() result is a call's request too.
declare const pinnedBuy: import('../../src/encode/request.js').PinnedEncoded<
  V3_1,
  import('../../src/generated/requests.js').RequestsByVersion[V3_1],
  'create_media_buy'
>;
const pinnedCall = await mcp.safeCallTask(mcpClient, pinnedBuy, { retry: { attempts: 3 } });
if (pinnedCall.success) expectTypeOf(pinnedCall.data).toEqualTypeOf<Decoded<'create_media_buy', { version: V3_1 }>>();

// The @a2a-js/sdk 0.3.x clients (the major @adcp/sdk 6.x needs), as they are, through a2aV03Client.
declare const v03Client: import('@a2a-js/sdk/client').Client;
declare const v03Legacy: import('@a2a-js/sdk/client').A2AClient;
const asV03: a2a.A2aV03Client[] = [v03Client, v03Legacy];
expectTypeOf(await a2a.callTask(a2a.a2aV03Client(asV03[0]!), 'get_products', brief, { version: '3.0' })).toEqualTypeOf<
  Decoded<'get_products', { version: '3.0' }>
>();
expectTypeOf(await v03Client.sendMessage(a2a.a2aV03Request({ task: 'get_products', args: brief }))).not.toBeAny();

// Every decode option reaches callTask (but transport and request, the call's own) and every poll of waitForTask
// (but the version the handle fixes): the names each reads are the names its type takes, so a decode option
// added to DecodeOptions and left out of the lists fails here, not silently at run time.
expectTypeOf<DecodeOptionKey>().toEqualTypeOf<keyof DecodeOptions>();
expectTypeOf<(typeof CALL_OPTION_KEYS)[number]>().toEqualTypeOf<keyof mcp.CallOptions>();
expectTypeOf<Exclude<keyof DecodeOptions, 'transport' | 'request'>>().toExtend<keyof mcp.CallOptions>();
expectTypeOf<(typeof WAIT_OPTION_KEYS)[number]>().toEqualTypeOf<keyof mcp.WaitOptions>();
expectTypeOf<Exclude<keyof DecodeOptions, 'version' | 'newerRelease' | 'transport' | 'request'>>().toExtend<keyof mcp.WaitOptions>();

// One listener type for callTask, waitForTask and the webhook receiver, whichever entry names it; narrowed on `type`.
expectTypeOf<mcp.CallOptions['onEvent']>().toEqualTypeOf<mcp.AdcpEventListener | undefined>();
expectTypeOf<mcp.WaitOptions['onEvent']>().toEqualTypeOf<mcp.AdcpEventListener | undefined>();
expectTypeOf<import('../../src/webhooks/index.js').WebhookReceiverOptions['onEvent']>().toEqualTypeOf<mcp.AdcpEventListener | undefined>();
expectTypeOf<a2a.AdcpEventListener>().toEqualTypeOf<import('../../src/webhooks/index.js').AdcpEventListener>();
declare const told: mcp.AdcpEvent;
if (told.type === 'retry') expectTypeOf(told.reason.blame).toEqualTypeOf<mcp.CallBlame>();
if (told.type === 'delivery-refused') expectTypeOf(told.refusal.httpStatus).toEqualTypeOf<number | undefined>();
if (told.type === 'attempt-ended' && !told.ok) expectTypeOf(told.error).toBeUnknown();
// An async listener is one too: a promise it returns is not awaited (a rejection is reported, never thrown).
await mcp.callTask(mcpClient, 'get_products', brief, { onEvent: async () => undefined, agent: 'https://seller.example' });
