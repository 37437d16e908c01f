/**
 * The command line's behaviour, run in this process: run() from src/cli/run.ts, given the
 * arguments, a stdin and two streams that collect what it writes, with its exit status, exact
 * output and exit status pinned. main.test.ts runs the bin as a child process and checks that it
 * prints and exits exactly as run() does.
 */
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect as expectHere, test } from 'vitest';
import { DEFAULT_BOUNDS } from '../../src/bounds/bounds.js';
import { HELP, releases } from '../../src/cli/help.js';
import { defaultVersion, versions } from '../../src/schema/versions.js';
import { runCli } from '../fixtures/cli-run.js';
import { payload } from '../fixtures/payloads.js';
import { V3_0, V3_1 } from '../fixtures/versions.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

// File arguments are relative to the working directory, as for the bin run from the package root.
beforeAll(() => expectHere(path.resolve(process.cwd())).toBe(path.resolve(root)));

const rateLimited = JSON.stringify({
  isError: true,
  content: [{ type: 'text', text: 'Rate limited' }],
  structuredContent: {
    adcp_error: {
      code: 'RATE_LIMITED',
      message: 'Slow down.\u001b[2J\u001b]8;;https://evil.example\u0007click\u202e',
      recovery: 'transient',
      retry_after: 30,
    },
  },
});

describe.concurrent('adcp-decode <task> [file|-]: success (exit 0, one line on stdout)', { timeout: 120_000 }, () => {
  test('MCP structuredContent plus summary text', async ({ expect }) => {
    expect(await runCli(['get_products', 'examples/get-products.mcp.json'])).toMatchInlineSnapshot(`
      {
        "exit": 0,
        "stderr": "",
        "stdout": "✔ get_products (AdCP ${V3_1}, completed): 3 products
      ",
      }
    `);
  });

  test('MCP JSON in text only', async ({ expect }) => {
    expect(await runCli(['get_products', 'examples/get-products.text-only.mcp.json'])).toMatchInlineSnapshot(`
      {
        "exit": 0,
        "stderr": "",
        "stdout": "✔ get_products (AdCP ${V3_1}, completed): 3 products
      ",
      }
    `);
  });

  test('A2A task: the key id and the main list', async ({ expect }) => {
    expect(await runCli(['create_media_buy', 'examples/create-media-buy.a2a.json'])).toMatchInlineSnapshot(`
      {
        "exit": 0,
        "stderr": "",
        "stdout": "✔ create_media_buy (AdCP ${V3_1}, completed): media_buy_id mb_8f2c41, 2 packages
      ",
      }
    `);
  });

  test('a bare payload on stdin, judged by an explicit release', async ({ expect }) => {
    const working = JSON.stringify({ status: 'working', percentage: 40, current_step: 'searching_inventory' });
    expect(await runCli(['get_products', '-', '--adcp-version', '3.0'], working)).toMatchInlineSnapshot(`
      {
        "exit": 0,
        "stderr": "",
        "stdout": "✔ get_products (AdCP ${V3_0}, working): 40%
      ",
      }
    `);
  });

  test('--json prints the decoded data', async ({ expect }) => {
    const working = JSON.stringify({ status: 'working', percentage: 40 });
    expect(await runCli(['get_products', '--json'], working)).toMatchInlineSnapshot(`
      {
        "exit": 0,
        "stderr": "",
        "stdout": "{
        "ok": true,
        "task": "get_products",
        "version": "${V3_1}",
        "status": "working",
        "summary": "40%",
        "data": {
          "status": "working",
          "percentage": 40
        }
      }
      ",
      }
    `);
  });
});

describe.concurrent('adcp-decode <task> [file|-]: failure (exit 1, code, message and issues on stderr)', { timeout: 120_000 }, () => {
  test('schema mismatch: every issue with its JSON Pointer', async ({ expect }) => {
    expect(await runCli(['get_products', 'examples/get-products.invalid.mcp.json'])).toMatchInlineSnapshot(`
      {
        "exit": 1,
        "stderr": "✖ get_products: SCHEMA_MISMATCH (AdCP ${V3_1})
        get_products response does not match the AdCP ${V3_1} schema (3 issues); first: /products/0/format_ids/0 must be object
        ✖ must be object
          → at /products/0/format_ids/0
        ✖ must have required property 'pricing_options'
          → at /products/1
        ✖ must be equal to one of the allowed values
          → at /products/2/delivery_type
      ",
        "stdout": "",
      }
    `);
  });

  test('an AdCP error (isError): the seller error and recovery', async ({ expect }) => {
    expect(await runCli(['get_products', 'examples/get-products.error.mcp.json'])).toMatchInlineSnapshot(`
      {
        "exit": 1,
        "stderr": "✖ get_products: TASK_FAILED (AdCP ${V3_1})
        get_products failed: the seller answered with an AdCP error with error code "RATE_LIMITED" (transient, retry after 30 s); the seller said "Too many get_products calls for this account; try again shortly."
        adcp_error RATE_LIMITED: Too many get_products calls for this account; try again shortly.
      ",
        "stdout": "",
      }
    `);
  });

  test('too many violations to list: the first is shown and the listing says it stopped', async ({ expect }) => {
    // 10,001 empty products, 10 missing required properties each: past the 100,000-error listing limit.
    const payload = JSON.stringify({ products: Array.from({ length: 10_001 }, () => ({})) });
    const human = await runCli(['get_products', '-'], payload);
    expect(human.exit).toBe(1);
    expect(human.stderr).toContain('(more than 100,000 issues; the listing stopped, the first is given)');
    expect(human.stderr.trimEnd().split('\n').at(-1)).toBe('  … the listing was cut (more than 100,000 issues, 1 kept)');
    const json = await runCli(['get_products', '-', '--json'], payload);
    const out = JSON.parse(json.stdout) as { error: { issuesComplete: boolean; issues: unknown[] } };
    expect(out.error.issuesComplete).toBe(false);
    expect(out.error.issues).toHaveLength(1);
  });

  test('--json on failure: the error as data on stdout', async ({ expect }) => {
    expect(await runCli(['get_products', 'examples/get-products.invalid.mcp.json', '--json'])).toMatchInlineSnapshot(`
      {
        "exit": 1,
        "stderr": "",
        "stdout": "{
        "ok": false,
        "task": "get_products",
        "error": {
          "code": "SCHEMA_MISMATCH",
          "name": "SchemaMismatchError",
          "message": "get_products response does not match the AdCP ${V3_1} schema (3 issues); first: /products/0/format_ids/0 must be object",
          "version": "${V3_1}",
          "schemaId": "/schemas/${V3_1}/media-buy/get-products-response.json",
          "issues": [
            {
              "path": "/products/0/format_ids/0",
              "keyword": "type",
              "params": {
                "type": "object"
              },
              "schemaPath": "/schemas/${V3_1}/core/format-id.json/type",
              "message": "must be object"
            },
            {
              "path": "/products/1",
              "keyword": "required",
              "params": {
                "missingProperty": "pricing_options"
              },
              "schemaPath": "#/required",
              "message": "must have required property 'pricing_options'"
            },
            {
              "path": "/products/2/delivery_type",
              "keyword": "enum",
              "params": {
                "allowedValues": [
                  "guaranteed",
                  "non_guaranteed"
                ]
              },
              "schemaPath": "/schemas/${V3_1}/enums/delivery-type.json/enum",
              "message": "must be equal to one of the allowed values"
            }
          ],
          "issuesComplete": true,
          "issuesFound": 3,
          "issuesShortened": 0
        }
      }
      ",
      }
    `);
  });

  test('--max-bytes maps to the decoder bound', async ({ expect }) => {
    expect(await runCli(['get_products', 'examples/get-products.text-only.mcp.json', '--max-bytes', '1000'])).toMatchInlineSnapshot(`
      {
        "exit": 1,
        "stderr": "✖ get_products: TOO_LARGE
        content[0].text is at least 2763 UTF-8 bytes; expected at most 1000 (maxBytes)
        → at /content/0/text
      ",
        "stdout": "",
      }
    `);
  });

  test('--transport maps to the decoder option', async ({ expect }) => {
    expect(await runCli(['get_products', 'examples/get-products.mcp.json', '--transport', 'a2a'])).toMatchInlineSnapshot(`
      {
        "exit": 1,
        "stderr": "✖ get_products: NO_PAYLOAD
        expected an A2A task with status.state; got none
      ",
        "stdout": "",
      }
    `);
  });

  test('stdin above 2 × max-bytes + 1 MiB is refused while reading', async ({ expect }) => {
    expect(await runCli(['get_products', '-', '--max-bytes', '10'], Buffer.alloc(2 * 1024 * 1024, 0x20))).toMatchInlineSnapshot(`
      {
        "exit": 1,
        "stderr": "✖ get_products: TOO_LARGE
        stdin is more than 1048596 bytes; expected at most 1048596 (2 × --max-bytes + 1 MiB), so reading stopped there
      ",
        "stdout": "",
      }
    `);
  });

  test('a file above 2 × max-bytes + 1 MiB is refused by its size, unread', async ({ expect }) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'adcp-decode-cli-'));
    const big = path.join(dir, 'big.json');
    writeFileSync(big, '');
    truncateSync(big, 1024 * 1024 + 1); // sparse: nothing is written
    const result = await runCli(['get_products', big, '--max-bytes', '0']);
    rmSync(dir, { recursive: true, force: true });
    expect({ ...result, stderr: result.stderr.replace(big, '<big.json>') }).toMatchInlineSnapshot(`
      {
        "exit": 1,
        "stderr": "✖ get_products: TOO_LARGE
        <big.json> is 1048577 bytes; expected at most 1048576 (2 × --max-bytes + 1 MiB), so it was not read
      ",
        "stdout": "",
      }
    `);
  });

  test('input that is not JSON, and empty input', async ({ expect }) => {
    expect(await runCli(['get_products'], '{"products": [')).toMatchInlineSnapshot(`
      {
        "exit": 1,
        "stderr": "✖ get_products: INVALID_JSON
        stdin is not valid JSON (it ends early)
      ",
        "stdout": "",
      }
    `);
    expect(await runCli(['get_products'], '')).toMatchInlineSnapshot(`
      {
        "exit": 1,
        "stderr": "✖ get_products: INVALID_JSON
        stdin is empty; expected JSON
      ",
        "stdout": "",
      }
    `);
  });

  test('a saved answer that repeats a key is refused, in the file itself and in a text item, not read as the last one', async ({
    expect,
  }) => {
    const completed = JSON.stringify(payload('3.1/get_products.valid'));
    const repeated = `{"status":"working",${completed.slice(1)}`;
    // In the file: structuredContent as saved, and the same under --json.
    const file = `{"content":[{"type":"text","text":"Done."}],"structuredContent":${repeated}}`;
    expect(await runCli(['get_products'], file)).toMatchInlineSnapshot(`
      {
        "exit": 1,
        "stderr": "✖ get_products: DUPLICATE_KEY
        expected each key once per object in the JSON at (root); found "status" repeated, the first at /structuredContent/status
        → at /structuredContent/status
      ",
        "stdout": "",
      }
    `);
    expect(JSON.parse((await runCli(['get_products', '--json'], file)).stdout)).toMatchObject({
      ok: false,
      error: { code: 'DUPLICATE_KEY', path: '/structuredContent/status' },
    });
    // In a text item of the saved result: decode's own parse refuses it.
    expect(await runCli(['get_products'], JSON.stringify({ content: [{ type: 'text', text: repeated }] }))).toMatchInlineSnapshot(`
      {
        "exit": 1,
        "stderr": "✖ get_products: DUPLICATE_KEY
        expected each key once per object in the JSON at /content/0/text; found "status" repeated, the first at /content/0/text/status
        → at /content/0/text/status
      ",
        "stdout": "",
      }
    `);
    // The same answer without the repeat decodes.
    expect((await runCli(['get_products'], JSON.stringify({ content: [{ type: 'text', text: completed }] }))).exit).toBe(0);
  });

  test('seller text cannot drive the terminal: control and bidi characters are escaped', async ({ expect }) => {
    const result = await runCli(['get_products', '-'], rateLimited);
    expect(result.stderr).not.toMatch(/[\u001b\u0007\u202e]/);
    expect(result).toMatchInlineSnapshot(`
      {
        "exit": 1,
        "stderr": "✖ get_products: TASK_FAILED (AdCP ${V3_1})
        get_products failed: the seller answered with an AdCP error with error code "RATE_LIMITED" (transient, retry after 30 s); the seller said "Slow down.\\u001b[2J\\u001b]8;;https://evil.example\\u0007click\\u202e"
        adcp_error RATE_LIMITED: Slow down.\\u001b[2J\\u001b]8;;https://evil.example\\u0007click\\u202e
      ",
        "stdout": "",
      }
    `);
  });
});

describe.concurrent('seller key names, codes and pointers cannot drive the terminal either', { timeout: 120_000 }, () => {
  /** OSC 52 (a terminal that honours it puts `hi` on the clipboard), a C1 CSI, a bidi override, a line separator. */
  const OSC52 = '\u001b]52;c;aGk=\u0007';
  const accounts = { status: 'completed', accounts: [], [`${OSC52}_id`]: 'acc_1\u2028FORGED LINE', [`\u202elist`]: [1] };

  test('the summary escapes top-level key names ending in _id, not only their values', async ({ expect }) => {
    const result = await runCli(['list_accounts', '-'], JSON.stringify(accounts));
    expect(result.stdout).not.toMatch(/[\u001b\u0007\u2028\u202e]/);
    expect(result).toMatchInlineSnapshot(`
      {
        "exit": 0,
        "stderr": "",
        "stdout": "✔ list_accounts (AdCP ${V3_1}, completed): \\u001b]52;c;aGk=\\u0007_id acc_1\\u2028FORGED LINE, 0 accounts, 1 \\u202elist
      ",
      }
    `);
  });

  test('--json escapes them inside its strings and still parses to the same data', async ({ expect }) => {
    const result = await runCli(['list_accounts', '-', '--json'], JSON.stringify(accounts));
    expect(result.stdout).not.toMatch(/[\u001b\u0007\u2028\u202e]/);
    expect((JSON.parse(result.stdout) as { data: unknown }).data).toEqual(accounts);
    expect(result.stdout.split('\n').filter((line) => line.includes('_id'))).toMatchInlineSnapshot(`
      [
        "  "summary": "\\\\u001b]52;c;aGk=\\\\u0007_id acc_1\\\\u2028FORGED LINE, 0 accounts, 1 \\\\u202elist",",
        "    "\\u001b]52;c;aGk=\\u0007_id": "acc_1\\u2028FORGED LINE",",
      ]
    `);
  });

  test('an adcp_error code with a C1 control, and __proto__ under a long hostile key', async ({ expect }) => {
    const c1 = await runCli(
      ['get_products', '-'],
      JSON.stringify({ isError: true, content: [], structuredContent: { adcp_error: { code: 'RATE\u009b2J_LIMITED' } } }),
    );
    expect(c1.stderr).not.toMatch(/[\u0080-\u009f]/);
    expect(c1).toMatchInlineSnapshot(`
      {
        "exit": 1,
        "stderr": "✖ get_products: TASK_FAILED (AdCP ${V3_1})
        get_products failed: the seller answered with an AdCP error with error code "RATE\\u009b2J_LIMITED" (transient)
        adcp_error RATE\\u009b2J_LIMITED
      ",
        "stdout": "",
      }
    `);
    const key = `${OSC52}${'k'.repeat(5000)}\u202e`;
    const unsafe = await runCli(
      ['get_products', '-'],
      `{"isError":true,"content":[],"structuredContent":{"adcp_error":{"code":"X",${JSON.stringify(key)}:{"__proto__":{"polluted":true}}}}}`,
    );
    expect(unsafe.stderr).not.toMatch(/[\u001b\u0007\u202e]/);
    expect(unsafe).toMatchInlineSnapshot(`
      {
        "exit": 1,
        "stderr": "✖ get_products: UNSAFE_JSON
        expected an adcp_error without __proto__ or constructor.prototype keys at /structuredContent/adcp_error/\\u001b]52;c;aGk=\\u0007kkkkkkkk…kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk\\u202e/__proto__, but found one
        → at /structuredContent/adcp_error/\\u001b]52;c;aGk=\\u0007kkkkkkkk…kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk\\u202e/__proto__
      ",
        "stdout": "",
      }
    `);
  });
});

describe.concurrent('usage errors (exit 2, one line on stderr, no stack trace)', { timeout: 120_000 }, () => {
  const cases: ReadonlyArray<readonly string[]> = [
    [],
    ['nope', 'x.json'],
    ['get-products', 'x.json'],
    ['get_products', 'missing.json'],
    ['get_products', 'examples'],
    ['get_products', 'x.json', '--frobnicate'],
    ['get_products', 'x.json', '--adcp-version'],
    ['get_products', 'x.json', '--adcp-version', '9.9'],
    ['get_products', 'x.json', '--max-bytes', '4MB'],
    ['get_products', 'x.json', '--transport', 'grpc'],
  ];

  test('each prints what was expected', async ({ expect }) => {
    const results = await Promise.all(cases.map((args) => runCli(args)));
    for (const r of results) {
      expect(r.exit).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.split('\n')).toHaveLength(2); // one line and its newline
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    const lines = results.map((r, i) => `$ ${['adcp-decode', ...cases[i]!].join(' ')}\n${r.stderr.trimEnd()}`).join('\n');
    expect(lines).toMatchInlineSnapshot(`
      "$ adcp-decode
      adcp-decode: expected a task name, e.g. adcp-decode get_products result.json, or adcp-decode tasks, call or probe (see --help)
      $ adcp-decode nope x.json
      adcp-decode: unknown task "nope"; expected an AdCP ${V3_1} or ${V3_0} task (run adcp-decode tasks for the list)
      $ adcp-decode get-products x.json
      adcp-decode: unknown task "get-products"; expected an AdCP ${V3_1} or ${V3_0} task (did you mean get_products?)
      $ adcp-decode get_products missing.json
      adcp-decode: cannot read "missing.json": no such file; expected a saved MCP result, A2A task or payload (JSON), or - for stdin
      $ adcp-decode get_products examples
      adcp-decode: cannot read "examples": it is a directory; expected a JSON file, or - for stdin
      $ adcp-decode get_products x.json --frobnicate
      adcp-decode: unknown option --frobnicate; expected --json, --adcp-version, --release, --max-bytes, --transport, --header, --timeout-ms or --help
      $ adcp-decode get_products x.json --adcp-version
      adcp-decode: --adcp-version expects a value
      $ adcp-decode get_products x.json --adcp-version 9.9
      adcp-decode: --adcp-version "9.9" is not a release this command has; expected auto, ${V3_1}, ${V3_0}, 3.1, 3.0 (another: generate its module and give it with --release <dir>)
      $ adcp-decode get_products x.json --max-bytes 4MB
      adcp-decode: --max-bytes expects a whole number of bytes, e.g. 4194304; got "4MB"
      $ adcp-decode get_products x.json --transport grpc
      adcp-decode: --transport expects auto, mcp, a2a or payload; got "grpc""
    `);
  });
});

describe.concurrent('help and tasks', { timeout: 120_000 }, () => {
  test('--help prints the help text, which names every bundled version and release and the default bound', async ({ expect }) => {
    expect(await runCli(['--help'])).toEqual({ exit: 0, stderr: '', stdout: `${HELP}\n` });
    expect(HELP).toMatch(/^Usage:\n {2}adcp-decode <task> \[file\|-\] \[options\]/);
    expect(HELP).toContain(`else ${defaultVersion}),`);
    expect(HELP).toContain(`a bundled version (${versions.join(', ')}) or release (${releases().join(', ')})`);
    expect(HELP).toContain(`(default ${DEFAULT_BOUNDS.maxBytes})`);
    expect(releases()).toEqual([...new Set(versions.map((v) => v.split('.').slice(0, 2).join('.')))]);
  });

  test('tasks lists every task of the default version with its response schema and async variants', async ({ expect }) => {
    const { exit, stdout } = await runCli(['tasks']);
    expect(exit).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^AdCP 3\.1\.\d+: \d+ tasks \(response schema, \[async variants\]\)$/);
    expect(lines.filter((l) => /^ {2}(create_media_buy|get_products) /.test(l)).map((l) => l.replace(/ +/g, ' '))).toMatchInlineSnapshot(`
      [
        " create_media_buy /schemas/${V3_1}/media-buy/create-media-buy-response.json [submitted, working, input-required]",
        " get_products /schemas/${V3_1}/media-buy/get-products-response.json [submitted, working, input-required]",
      ]
    `);
    expect(lines.at(-1)).toMatchInlineSnapshot(`"Also known: ${V3_0} (--adcp-version)"`);
  });

  test('tasks --adcp-version 3.0 --json', async ({ expect }) => {
    const { exit, stdout } = await runCli(['tasks', '--adcp-version', '3.0', '--json']);
    expect(exit).toBe(0);
    const listing = JSON.parse(stdout) as {
      version: string;
      tasks: Array<{ task: string; response: string; async: Record<string, string> }>;
    };
    expect(listing.version).toBe(V3_0);
    expect(listing.tasks.find((t) => t.task === 'get_products')).toMatchInlineSnapshot(`
      {
        "async": {
          "input-required": "/schemas/${V3_0}/media-buy/get-products-async-response-input-required.json",
          "submitted": "/schemas/${V3_0}/media-buy/get-products-async-response-submitted.json",
          "working": "/schemas/${V3_0}/media-buy/get-products-async-response-working.json",
        },
        "response": "/schemas/${V3_0}/media-buy/get-products-response.json",
        "task": "get_products",
      }
    `);
  });
});
