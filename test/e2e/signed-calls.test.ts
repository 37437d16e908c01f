/**
 * Signed requests over the real SDKs on 127.0.0.1: callTask through an MCP Client and an A2A
 * Client whose fetch is withRequestSigning given the seller's capabilities. What the SDKs put on
 * the wire (initialize, notifications, tools/call, SendMessage) is classified as the
 * seller's verifier reads it: only the operation the seller requires is signed, and what was
 * signed verifies under the request profile as the seller received it.
 */
import { TaskState } from '@a2a-js/sdk-v1';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { callTask as callA2a } from '../../src/a2a/index.js';
import { callTask as callMcp } from '../../src/mcp/index.js';
import { REQUEST_PROFILES } from '../../src/signatures/http/profile.js';
import { createMemoryReplayStore } from '../../src/signatures/replay/replay.js';
import { createRequestSigner, type RequestSigningCapability, withRequestSigning } from '../../src/signatures/sign/index.js';
import { verifyProfileSignature } from '../../src/signatures/verify/verify.js';
import { mediaBuyRequest, PRODUCTS_BRIEF } from '../encode/requests.js';
import { dataPart, executor, type ServedAgent, serveAgent, taskEvents } from '../fixtures/a2a-sellers.js';
import { lowLevelSeller, type ServedSellers, serveSellers } from '../fixtures/mcp-sellers.js';
import { privateJwk, received, resolverOf } from '../signatures/sign/helpers.js';
import { ed25519 } from '../webhooks/fixtures.js';

/** The seller requires create_media_buy signed, and verifies get_products when present. */
const capabilities: { request_signing: RequestSigningCapability } = {
  request_signing: {
    supported: true,
    covers_content_digest: 'required',
    required_for: ['create_media_buy'],
    supported_for: ['get_products'],
  },
};
const signer = createRequestSigner({ key: privateJwk(ed25519), keyid: ed25519.kid, alg: 'ed25519' });

/** A request as it left the signing fetch: its JSON-RPC method and invoked name, and a copy to verify. */
interface Sent {
  readonly rpc: string | undefined;
  readonly name: string | undefined;
  readonly signed: boolean;
  readonly request: Request;
}

/** A fetch that records what the signing fetch hands it, then sends it. */
function recording(log: Sent[]): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    let rpc: string | undefined;
    let name: string | undefined;
    try {
      const body = JSON.parse(await request.clone().text()) as {
        method?: string;
        params?: { name?: string; message?: { parts?: Array<{ data?: { skill?: string } }> } };
      };
      rpc = body.method;
      name = body.params?.name ?? body.params?.message?.parts?.[0]?.data?.skill;
    } catch {
      // not JSON (an SSE GET): no method
    }
    log.push({ rpc, name, signed: request.headers.has('signature-input'), request: request.clone() });
    return fetch(request);
  };
}

const mediaBuyAnswer = { status: 'submitted', task_id: 'task_cmb_1', adcp_version: '3.1' };
const productsAnswer = { adcp_version: '3.1', products: [], cache_scope: 'public' };

let mcpSellers: ServedSellers;
let a2aSeller: ServedAgent;
beforeAll(async () => {
  mcpSellers = await serveSellers({
    seller: lowLevelSeller({
      call: (params) => {
        const payload = { ...(params.name === 'create_media_buy' ? mediaBuyAnswer : productsAnswer), context: params.arguments?.context };
        return { content: [{ type: 'text', text: 'ok' }], structuredContent: payload };
      },
    }),
  });
  a2aSeller = await serveAgent(
    executor(async (ctx, bus) => {
      const first = ctx.userMessage.parts[0]?.content;
      const { skill, input } = (first?.$case === 'data' ? first.value : {}) as { skill: string; input: Record<string, unknown> };
      const { submitted, status, artifact } = taskEvents(ctx, bus);
      submitted();
      artifact([dataPart({ ...(skill === 'create_media_buy' ? mediaBuyAnswer : productsAnswer), context: input.context })], false, true);
      status(TaskState.TASK_STATE_COMPLETED);
      bus.finished();
    }),
  );
});
afterAll(async () => {
  await mcpSellers?.close();
  await a2aSeller?.close();
});

/** Every signed request verifies under the request profile, as the seller receives it. */
async function expectVerified(log: readonly Sent[]): Promise<void> {
  const options = { keys: resolverOf(ed25519), replayStore: createMemoryReplayStore() };
  for (const sent of log.filter((s) => s.signed)) {
    await expect(verifyProfileSignature(await received(sent.request), options, REQUEST_PROFILES.base64url)).resolves.toMatchObject({
      keyid: ed25519.kid,
    });
  }
}

describe('only what the seller requires is signed, over the real SDKs', () => {
  test('MCP: tools/call create_media_buy signed; all else the SDK sends (initialize, get_products, ...) not', async () => {
    const log: Sent[] = [];
    const client = new Client({ name: 'buyer', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL('seller', mcpSellers.base), {
        fetch: withRequestSigning(recording(log), signer, { capabilities }),
      }),
    );
    try {
      await callMcp(client, 'get_products', PRODUCTS_BRIEF, { version: '3.1' });
      await expect(callMcp(client, 'create_media_buy', mediaBuyRequest(1), { version: '3.1' })).resolves.toMatchObject({
        status: 'submitted',
      });
    } finally {
      await client.close();
    }
    expect(log.filter((s) => s.signed).map((s) => [s.rpc, s.name])).toEqual([['tools/call', 'create_media_buy']]);
    expect(log.map((s) => s.rpc)).toEqual(expect.arrayContaining(['initialize', 'tools/call']));
    await expectVerified(log);
  });

  test("A2A: the SendMessage invoking create_media_buy signed; get_products' send not", async () => {
    const log: Sent[] = [];
    const agent = await a2aSeller.client(withRequestSigning(recording(log), signer, { capabilities }));
    await callA2a(agent, 'get_products', PRODUCTS_BRIEF, { version: '3.1' });
    await expect(callA2a(agent, 'create_media_buy', mediaBuyRequest(1), { version: '3.1' })).resolves.toMatchObject({
      status: 'submitted',
    });
    expect(log.filter((s) => s.signed).map((s) => s.name)).toEqual(['create_media_buy']);
    expect(log.filter((s) => s.name === 'get_products')).toHaveLength(1);
    await expectVerified(log);
  });

  test("sign: 'supported' signs get_products too (the seller's supported_for)", async () => {
    const log: Sent[] = [];
    const client = new Client({ name: 'buyer', version: '1.0.0' });
    const fetch = withRequestSigning(recording(log), signer, { capabilities, sign: 'supported' });
    await client.connect(new StreamableHTTPClientTransport(new URL('seller', mcpSellers.base), { fetch }));
    try {
      await callMcp(client, 'get_products', PRODUCTS_BRIEF, { version: '3.1' });
    } finally {
      await client.close();
    }
    expect(log.filter((s) => s.signed).map((s) => s.name)).toEqual(['get_products']);
    await expectVerified(log);
  });
});
