/**
 * `adcp-decode call` and `adcp-decode probe` against sellers on 127.0.0.1, run in this process
 * (run() with stand-in streams): what each prints and its exit status per outcome (0 ok, 1 the
 * seller broke the spec or its task failed, 2 usage, 3 no answer, 4 a bound), the headers sent,
 * the transport detected, the SDKs imported from where the user installed them (or a usage error
 * when missing), mutating tasks never called, and hostile sellers whose text in every printed
 * field reaches the terminal escaped. The official SDK's reference sellers: test/sdk/cli.test.ts.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { TaskState } from '@a2a-js/sdk-v1';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { minimalRequest } from '../../src/cli/minimal-request.js';
import { run } from '../../src/cli/run.js';
import { INSTALLED, type SdkImports } from '../../src/cli/sdk.js';
import { safeEncode } from '../../src/encode/encode.js';
import { releaseFor } from '../../src/schema/releases.js';
import { versions } from '../../src/schema/versions.js';
import { dataPart, executor, type ServedAgent, serveAgent, taskEvents } from '../fixtures/a2a-sellers.js';
import { HOSTILE_LINE, hasRawControl } from '../fixtures/hostile-sellers.js';
import { capabilities31, type LiveSeller, serveLiveSeller, structured } from '../fixtures/live-sellers.js';
import { V3_0, V3_1 } from '../fixtures/versions.js';

interface Ran {
  readonly exit: number;
  readonly out: string;
  readonly err: string;
}

/** run() over `args`, with stdin, the SDK imports, and what it printed. */
async function cli(args: readonly string[], sdks: SdkImports = INSTALLED, stdin = ''): Promise<Ran> {
  let out = '';
  let err = '';
  const exit = await run(
    args,
    {
      stdin: Readable.from(stdin === '' ? [] : [Buffer.from(stdin)]),
      stdout: { write: (text: string) => (out += text) },
      stderr: { write: (text: string) => (err += text) },
    },
    sdks,
  );
  return { exit, out, err };
}

/** The @a2a-js/sdk 1.x client module, as a user who installed 1.x has it. */
const A2A_V1: SdkImports = { ...INSTALLED, a2a: () => import('@a2a-js/sdk-v1/client') };

/** An import that fails as Node fails it for a package that is not installed. */
const notInstalled = (): Promise<never> =>
  Promise.reject(Object.assign(new Error("Cannot find package '@x/y'"), { code: 'ERR_MODULE_NOT_FOUND' }));

const signing = {
  request_signing: {
    supported: true,
    supported_for: ['create_media_buy'],
    required_for: ['create_media_buy'],
    covers_content_digest: 'required',
  },
  webhook_signing: { supported: true },
};

/** A valid 3.1 get_products answer: no products, public cache. */
const products = { adcp_version: '3.1', cache_scope: 'public', products: [] };

describe('probe: a 3.1 seller over MCP', () => {
  let seller: LiveSeller;
  beforeAll(async () => {
    seller = await serveLiveSeller(
      {
        get_adcp_capabilities: () => structured(capabilities31(signing)),
        get_products: () => structured(products),
        list_creative_formats: () => structured({ adcp_version: '3.1', formats: 'none' }),
        create_media_buy: () => structured({ adcp_version: '3.1', media_buy_id: 'mb_1', packages: [] }),
      },
      ['get_adcp_capabilities', 'get_products', 'list_creative_formats', 'create_media_buy', 'internal_debug'],
    );
  });
  afterAll(() => seller.close());

  test('negotiates 3.1, calls each read-only task it lists with a minimal request, never a mutating one', async () => {
    const r = await cli(['probe', seller.url, '--header', 'Authorization: Bearer s3cr3t-t0ken']);
    const lines = r.out.split('\n');
    expect(lines[0]).toBe(`probe ${seller.url} over MCP`);
    expect(lines).toContain(`negotiation   AdCP ${V3_1} (the seller lists 3.1; adcp-decode speaks 3.1 with it)`);
    expect(lines).toContain(
      'signing       requests: supported (required for create_media_buy; content-digest required); webhooks: supported',
    );
    expect(lines).toContain(`listed        5 tools, 3 of them read-only tasks of AdCP ${V3_1}: probed`);
    expect(lines).toContain('              1 mutating, not called: create_media_buy');
    expect(lines).toContain(`              1 not tasks of AdCP ${V3_1}: internal_debug`);
    expect(lines.find((l) => l.startsWith('✔ get_products'))).toMatch(
      new RegExp(`^✔ get_products +ok +${V3_1} +structuredContent +3\\.1 +\\d+ +\\d+ ms$`),
    );
    expect(lines.find((l) => l.startsWith('✖ list_creative_formats'))).toMatch(/SCHEMA_MISMATCH +3\.1\.19 +structuredContent +3\.1/);
    expect(r.out).toContain('    ✖ must be array\n      → at /formats\n');
    expect(lines.at(-2)).toBe('3 answers: 2 decoded, 1 broke the spec; exit 1');
    expect(r).toMatchObject({ exit: 1, err: '' });
    // Only the read-only tasks were called, in the release negotiated, with what their schema requires.
    expect(seller.calls.map((c) => c.name)).toEqual(['get_adcp_capabilities', 'get_products', 'list_creative_formats']);
    expect(seller.calls[1]?.args).toEqual({ buying_mode: 'brief', adcp_version: '3.1', adcp_major_version: 3 });
    // Every request carried the header; its value is printed nowhere.
    expect(seller.headers.length).toBeGreaterThan(3);
    expect(seller.headers.every((h) => h.authorization === 'Bearer s3cr3t-t0ken')).toBe(true);
    expect(r.out).not.toContain('s3cr3t');
  });

  test('--json: the same findings as data, the issues in full', async () => {
    const r = await cli(['probe', seller.url, '--json']);
    const report = JSON.parse(r.out) as Record<string, unknown> & { answers: Array<Record<string, unknown>> };
    expect(r.exit).toBe(1);
    expect(report).toMatchObject({
      ok: false,
      exit: 1,
      transport: 'mcp',
      version: V3_1,
      pinned: false,
      negotiation: { ok: true, version: V3_1, release: '3.1', sellerVersions: ['3.1'] },
      signing: { request: signing.request_signing, webhook: signing.webhook_signing },
      listed: {
        readOnly: ['get_adcp_capabilities', 'get_products', 'list_creative_formats'],
        mutating: ['create_media_buy'],
        other: ['internal_debug'],
      },
      counts: { ok: 2, broke: 1 },
    });
    expect(report.answers.map((a) => [a.task, a.verdict, a.path, a.echoed])).toEqual([
      ['get_adcp_capabilities', 'ok', 'structuredContent', '3.1'],
      ['get_products', 'ok', 'structuredContent', '3.1'],
      ['list_creative_formats', 'broke', 'structuredContent', '3.1'],
    ]);
    expect(report.answers[2]).toMatchObject({
      error: { code: 'SCHEMA_MISMATCH', issues: [expect.objectContaining({ path: '/formats', keyword: 'type' })] },
      args: { adcp_version: '3.1', adcp_major_version: 3 },
    });
    expect(report.answers.every((a) => typeof a.bytes === 'number' && typeof a.ms === 'number')).toBe(true);
  });

  test('--adcp-version pins the version the tasks are called in; what it cannot judge is not blamed on the seller', async () => {
    const r = await cli(['probe', seller.url, '--adcp-version', '3.0', '--json']);
    const report = JSON.parse(r.out) as { version: string; pinned: boolean; answers: Array<Record<string, unknown>> };
    expect(report).toMatchObject({ version: V3_0, pinned: true, counts: { ok: 1, unjudged: 2 } });
    // A 3.0 request stamps only its major: the 3.1 answer is allowed, but a call pinned to 3.0 cannot judge it.
    expect(report.answers.slice(1)).toEqual([
      expect.objectContaining({
        task: 'get_products',
        verdict: 'unjudged',
        judgedBy: V3_0,
        error: expect.objectContaining({ code: 'UNSUPPORTED_VERSION' }),
      }),
      expect.objectContaining({ task: 'list_creative_formats', verdict: 'unjudged', judgedBy: V3_0 }),
    ]);
    expect(r.exit).toBe(1);
  });
});

describe('call', () => {
  let seller: LiveSeller;
  beforeAll(async () => {
    seller = await serveLiveSeller({
      get_adcp_capabilities: () => structured(capabilities31()),
      get_products: () => structured(products),
      get_media_buys: () => ({
        isError: true,
        content: [{ type: 'text', text: 'no account' }],
        structuredContent: { adcp_error: { code: 'ACCOUNT_REQUIRED', message: 'Which account?', recovery: 'correctable' } },
      }),
      list_creative_formats: async () => {
        await new Promise((resolve) => setTimeout(resolve, 400));
        return structured({ adcp_version: '3.1', formats: [] });
      },
      list_accounts: () => structured({ adcp_version: '3.1', accounts: [], note: 'x'.repeat(5000) }),
    });
  });
  afterAll(() => seller.close());

  test('decodes the answer (exit 0): the one-line summary and the exchange', async () => {
    const r = await cli(['call', seller.url, 'get_products', '-'], INSTALLED, '{"buying_mode":"brief","brief":"CTV in Q3"}');
    expect(r.exit).toBe(0);
    const [line, facts] = r.out.split('\n');
    expect(line).toBe(`✔ get_products (AdCP ${V3_1}, no status): 0 products`);
    expect(facts).toMatch(/^ {2}MCP, structuredContent, adcp_version 3\.1, \d+ bytes in \d+ ms$/);
    // Negotiated first, then called in the release both speak.
    expect(seller.calls.slice(-2).map((c) => c.name)).toEqual(['get_adcp_capabilities', 'get_products']);
    expect(seller.calls.at(-1)?.args).toEqual({ buying_mode: 'brief', brief: 'CTV in Q3', adcp_version: '3.1', adcp_major_version: 3 });
  });

  test('the seller’s own error is a failed task (exit 1), its code and message on stderr', async () => {
    const r = await cli(['call', seller.url, 'get_media_buys', '--adcp-version', '3.1']);
    expect(r.exit).toBe(1);
    expect(r.out).toBe('');
    expect(r.err).toContain(`✖ get_media_buys: TASK_FAILED (AdCP ${V3_1})`);
    expect(r.err).toContain('  adcp_error ACCOUNT_REQUIRED: Which account?');
    expect(r.err).toMatch(/ {2}MCP, isError, adcp_error in structuredContent, adcp_version not echoed, \d+ bytes in \d+ ms\n$/);
  });

  test('arguments the request schema refuses are a usage error (exit 2): the issues, nothing sent', async () => {
    const before = seller.calls.length;
    const r = await cli(['call', seller.url, 'get_products', '--adcp-version', '3.1', '--json']);
    expect(r.exit).toBe(2);
    expect(JSON.parse(r.out)).toMatchObject({
      ok: false,
      error: { code: 'INVALID_REQUEST', issues: [expect.objectContaining({ params: { missingProperty: 'buying_mode' } })] },
    });
    expect(seller.calls.length).toBe(before);
  });

  test('no seller listening: no answer (exit 3)', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const r = await cli(['call', `http://127.0.0.1:${port}/mcp`, 'get_adcp_capabilities']);
    expect(r.exit).toBe(3);
    expect(r.err).toMatch(/^✖ get_adcp_capabilities: TRANSPORT_FAILED\n {2}initialize: the connection failed/);
  });

  test('our bounds: an answer past --max-bytes, a seller past --timeout-ms (exit 4)', async () => {
    const large = await cli(['call', seller.url, 'list_accounts', '--adcp-version', '3.1', '--max-bytes', '2000']);
    expect(large.exit).toBe(4);
    expect(large.err).toContain('✖ list_accounts: TOO_LARGE');
    const slow = await cli(['call', seller.url, 'list_creative_formats', '--adcp-version', '3.1', '--timeout-ms', '150']);
    expect(slow.exit).toBe(4);
    expect(slow.err).toContain('✖ list_creative_formats: TIMEOUT');
  });
});

describe('A2A', () => {
  let agent: ServedAgent;
  const skills: string[] = [];
  beforeAll(async () => {
    agent = await serveAgent(
      executor(async (ctx, bus) => {
        const first = ctx.userMessage.parts[0]?.content;
        const invoked = (first?.$case === 'data' ? first.value : {}) as { skill?: string };
        skills.push(invoked.skill ?? '');
        const { submitted, status, artifact } = taskEvents(ctx, bus);
        submitted();
        artifact([dataPart(invoked.skill === 'get_products' ? products : capabilities31())], false, true);
        status(TaskState.TASK_STATE_COMPLETED);
        bus.finished();
      }),
    );
  });
  afterAll(() => agent.close());

  test('auto: the URL refuses MCP, its agent card says A2A; spoken over the 1.x SDK the user installed', async () => {
    const r = await cli(['call', agent.origin, 'get_products', '-'], A2A_V1, '{"buying_mode":"brief","brief":"CTV"}');
    expect(r.err).toBe('');
    expect(r.out).toMatch(
      new RegExp(
        `^✔ get_products \\(AdCP ${V3_1}, no status\\): 0 products\\n {2}A2A, artifacts\\[0\\]\\.parts\\[0\\] \\(completed\\), adcp_version 3\\.1, \\d+ bytes in \\d+ ms\\n$`,
      ),
    );
    expect(r.exit).toBe(0);
    expect(skills.slice(-2)).toEqual(['get_adcp_capabilities', 'get_products']);
  });

  test('probe over A2A: the card lists no skills, so capabilities alone (exit 0)', async () => {
    const r = await cli(['probe', agent.origin, '--transport', 'a2a'], A2A_V1);
    expect(r.out).toContain(`listed        0 skills, 0 of them read-only tasks of AdCP ${V3_1}: probed`);
    expect(r.out).toMatch(/✔ get_adcp_capabilities +ok +3\.1\.19 +artifacts\[0\]\.parts\[0\] \(completed\) +3\.1 /);
    expect(r.exit).toBe(0);
  });
});

describe('the SDKs are the user’s: one not installed is a usage error naming the install', () => {
  let seller: LiveSeller;
  let agent: ServedAgent;
  beforeAll(async () => {
    seller = await serveLiveSeller({ get_adcp_capabilities: () => structured(capabilities31()) });
    agent = await serveAgent(executor(async () => undefined));
  });
  afterAll(async () => {
    await seller.close();
    await agent.close();
  });

  test('MCP', async () => {
    const r = await cli(['probe', seller.url], { ...INSTALLED, mcp: notInstalled });
    expect(r).toEqual({
      exit: 2,
      out: '',
      err: 'adcp-decode: talking MCP needs @modelcontextprotocol/sdk, which is not installed; run npm install @modelcontextprotocol/sdk\n',
    });
  });

  test('A2A, once the agent card says the agent speaks it', async () => {
    const r = await cli(['call', agent.origin, 'get_adcp_capabilities'], { ...INSTALLED, a2a: notInstalled });
    expect(r).toEqual({
      exit: 2,
      out: '',
      err: 'adcp-decode: talking A2A needs @a2a-js/sdk, which is not installed; run npm install @a2a-js/sdk\n',
    });
  });
});

describe('hostile sellers: nothing they send reaches the terminal raw', () => {
  const hostile = `x${HOSTILE_LINE}`;
  let seller: LiveSeller;
  let card: { url: string; close(): Promise<void> };
  let agent: ServedAgent;
  beforeAll(async () => {
    seller = await serveLiveSeller(
      {
        get_adcp_capabilities: () =>
          structured(
            capabilities31({
              request_signing: { supported: true, supported_for: [hostile], required_for: [hostile] },
              webhook_signing: { supported: true },
            }),
          ),
        get_products: () => ({
          isError: true,
          content: [{ type: 'text', text: hostile }],
          structuredContent: { adcp_error: { code: 'E\u001b[2J\u202e', message: hostile, field: hostile, suggestion: hostile } },
        }),
        get_media_buys: () =>
          structured({ adcp_version: '3.1', media_buys: [], [`k${HOSTILE_LINE}_id`]: hostile, [`l${HOSTILE_LINE}`]: [] }),
        list_creative_formats: () => structured({ adcp_version: `3.1${HOSTILE_LINE}`, formats: [{ [hostile]: hostile }] }),
        list_accounts: { refuse: 500, body: hostile.repeat(50) },
      },
      ['get_adcp_capabilities', 'get_products', 'get_media_buys', 'list_creative_formats', 'list_accounts', hostile],
    );
    // An agent card whose skill ids are hostile, for the A2A agent beside it.
    agent = await serveAgent(executor(async () => undefined));
    const body = JSON.stringify({
      name: hostile,
      description: hostile,
      supportedInterfaces: [{ url: `${agent.origin}/a2a`, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' }],
      version: '1.0.0',
      capabilities: {},
      securitySchemes: {},
      securityRequirements: [],
      defaultInputModes: [],
      defaultOutputModes: [],
      skills: [{ id: hostile, name: hostile, description: hostile, tags: [] }],
      signatures: [],
    });
    const http = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    card = {
      url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/.well-known/agent-card.json`,
      close: () => new Promise((resolve) => http.close(() => resolve())),
    };
  });
  afterAll(async () => {
    await seller.close();
    await card.close();
    await agent.close();
  });

  /** The hostile text was printed, escaped, never raw (a line break only between lines of ours). */
  function escaped(r: Ran): void {
    expect((r.out + r.err).split('\n').filter(hasRawControl)).toEqual([]);
    expect(r.out + r.err).toContain('\\u001b');
  }

  test('probe: listed names, signing, codes, messages, keys, pointers, the echoed release, a refusal body', async () => {
    const human = await cli(['probe', seller.url]);
    escaped(human);
    expect(human.exit).toBe(1);
    const shown = (text: string): string => JSON.stringify(text).slice(1, -1);
    for (const line of [
      `              1 not tasks of AdCP ${V3_1}: x\\u001b[31mERROR`,
      'signing       requests: supported (required for x\\u001b[31mERROR',
      `• get_products           refused E\\u001b[2J\\u202e`,
      `    transient: ${shown(hostile).slice(0, 40)}`,
      '    k\\u001b[31mERROR',
      ', 0 media buys, 0 l\\u001b[31mERROR',
      'list_creative_formats  VERSION_MISMATCH',
      '3.1\\u001b[31mERROR',
      'HTTP 500',
      'the seller said: x\\u001b[31mERROR',
    ])
      expect(human.out).toContain(line);
    const json = await cli(['probe', seller.url, '--json']);
    escaped(json);
    expect((JSON.parse(json.out) as { listed: { other: string[] } }).listed.other).toEqual([hostile]);
  });

  test('call: the seller’s error fields, the summary’s keys, an HTTP refusal', async () => {
    const args = { get_products: '{"buying_mode":"brief"}', get_media_buys: '{}', list_creative_formats: '{}', list_accounts: '{}' };
    for (const [task, stdin] of Object.entries(args))
      for (const json of [[], ['--json']])
        escaped(await cli(['call', seller.url, task, '-', '--adcp-version', '3.1', ...json], INSTALLED, stdin));
  });

  test('an agent card with hostile skill ids', async () => {
    const r = await cli(['probe', card.url], A2A_V1);
    escaped(r);
    expect(r.out).toContain('listed        1 skills, 0 of them read-only tasks');
  });

  test('a connection refused with a hostile body', async () => {
    const refusing = createServer((_req, res) => res.writeHead(401, { 'content-type': 'text/plain' }).end(hostile));
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    try {
      const r = await cli(['probe', `http://127.0.0.1:${(refusing.address() as AddressInfo).port}/mcp`, '--transport', 'mcp']);
      escaped(r);
      expect(r.exit).toBe(3);
      expect(r.out).toContain('HTTP 401');
    } finally {
      await new Promise((resolve) => refusing.close(resolve));
    }
  });
});

describe('usage errors (exit 2, one line)', () => {
  test.each([
    [['probe'], "probe expects the seller agent's URL, e.g. https://seller.example/mcp"],
    [['probe', 'ftp://seller.example/'], 'probe expects an http or https URL; got a ftp: one'],
    [['probe', 'http://127.0.0.1:1/mcp', 'extra'], 'probe takes the agent\'s URL only; got "extra" after it'],
    [
      ['call', 'http://127.0.0.1:1/mcp'],
      'call expects a task after the URL, e.g. adcp-decode call https://seller.example/mcp get_products args.json',
    ],
    [['call', 'http://127.0.0.1:1/mcp', 'get-products'], expect.stringContaining('did you mean get_products?')],
    [['probe', 'http://127.0.0.1:1/mcp', '--header', 'Authorization'], expect.stringContaining('--header expects "Name: value"')],
    [
      ['probe', 'http://127.0.0.1:1/mcp', '--header', 'X-Key: a\u0000b'],
      '--header "X-Key" has a value HTTP cannot carry (a line break or a NUL)',
    ],
    [
      ['probe', 'http://127.0.0.1:1/mcp', '--timeout-ms', '0'],
      '--timeout-ms expects a whole number of milliseconds from 1, e.g. 60000; got "0"',
    ],
    [['probe', 'http://127.0.0.1:1/mcp', '--transport', 'payload'], '--transport of a live seller expects auto, mcp or a2a; got "payload"'],
    [['get_products', 'x.json', '--header', 'A: b'], '--header is for call and probe (a live seller), not get_products'],
  ] as const)('%j', async (args, message) => {
    const r = await cli(args);
    expect(r).toEqual({ exit: 2, out: '', err: expect.stringMatching(/^adcp-decode: .*\n$/) });
    expect(r.err.slice('adcp-decode: '.length, -1)).toEqual(message);
  });

  test('an arguments file that is not JSON', async () => {
    const r = await cli(['call', 'http://127.0.0.1:1/mcp', 'get_products', '-'], INSTALLED, '{"buying_mode":');
    expect(r).toEqual({ exit: 2, out: '', err: 'adcp-decode: the arguments: stdin is not valid JSON (it ends early)\n' });
  });
});

describe('what the probe sends comes from the release’s tables and schemas', () => {
  /** The tasks a release's tool facts call read-only. */
  const readOnly = (version: string): string[] =>
    Object.entries(releaseFor(version).tools)
      .filter(([, facts]) => facts.mutating === false)
      .map(([task]) => task);

  test('a task is read-only exactly where the manifest says mutating: false', () => {
    for (const version of versions) {
      const manifest = JSON.parse(
        readFileSync(new URL(`../../schemas/synced/schemas/${version}/manifest.json`, import.meta.url), 'utf8'),
      ) as {
        tools: Record<string, { mutating?: unknown }>;
      };
      expect(readOnly(version)).toEqual(Object.keys(manifest.tools).filter((task) => manifest.tools[task]?.mutating === false));
      expect(Object.keys(releaseFor(version).tools)).toEqual(Object.keys(manifest.tools));
      expect(readOnly(version).length).toBeGreaterThan(20);
    }
  });

  test('every read-only task of every bundled version has a minimal request its schema accepts', () => {
    for (const version of versions) {
      for (const task of readOnly(version)) {
        const found = minimalRequest(task, version);
        expect(found.ok ? found.request.task : found.why, `${version} ${task}`).toBe(task);
        // What was found is what encode accepts.
        if (found.ok) expect(safeEncode(task as never, found.request.args as never, { version } as never).success).toBe(true);
      }
    }
    const products = minimalRequest('get_products', V3_1);
    expect(products.ok && products.request.args).toEqual({ buying_mode: 'brief', adcp_version: '3.1', adcp_major_version: 3 });
  });
});
