/**
 * Headless Chromium on pages served with `Content-Security-Policy: script-src 'self'` (no
 * `unsafe-eval`), for the tests that run a bundle as a browser or a worker would: a server of a
 * folder's ES modules with a page per route, the page and worker scripts that run a bundle's
 * `probe` and collect the CSP violations they see, and a visit that returns the result, the
 * violations and the console's errors. Chromium: /usr/bin/chromium (Debian's package, which
 * .ci/run installs), or CHROMIUM_PATH.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import puppeteer from 'puppeteer-core';
import { expect } from 'vitest';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The policy every response is served under. */
const CSP = "default-src 'self'; script-src 'self'";

/** Where the pages' scripts record what the CSP refused (`window.violations`), before anything else runs. */
const COLLECT = `window.violations = [];
document.addEventListener('securitypolicyviolation', (e) => window.violations.push(e.violatedDirective + ' ' + e.blockedURI));
`;

/**
 * A page's module script that imports `probe` from a bundle, runs it on /input.json and sets
 * `window.result` (or `{ failed }`).
 *
 * @param probe The bundle's entry, as the script imports it ('./probe.mjs').
 */
export function probePage(probe: string): string {
  return `${COLLECT}import(${JSON.stringify(probe)}).then(async ({ probe }) => { window.result = await probe(await (await fetch('/input.json')).json()); }).catch((e) => { window.result = { failed: String(e) }; });
`;
}

/** A page's module script that tries `new Function`: an EvalError and a script-src violation when the CSP holds. */
export const CONTROL_PAGE = `${COLLECT}try { new Function('return 1'); window.result = 'allowed'; } catch (e) { window.result = e.name; }
`;

/**
 * A page's module script that starts a module worker and takes its `{ result, violations }` as the page's own.
 *
 * @param worker The worker's script, as the page names it ('/neutral/worker.mjs').
 */
export function workerPage(worker: string): string {
  return `${COLLECT}const worker = new Worker(${JSON.stringify(worker)}, { type: 'module' });
worker.onmessage = (e) => { window.violations.push(...e.data.violations); window.result = e.data.result; };
worker.onerror = (e) => { window.result = { failed: String(e.message) }; };
`;
}

/**
 * A module worker's script that imports `probe` from a bundle, runs it on /input.json and posts the
 * result with the violations the worker saw (a worker's are dispatched on its own global, not the page's).
 *
 * @param probe The bundle's entry, as the worker imports it ('./probe.mjs'); `null` for the control, which tries `new Function`.
 */
export function workerScript(probe: string | null): string {
  const collect = `const violations = [];
self.addEventListener('securitypolicyviolation', (e) => violations.push(e.violatedDirective + ' ' + e.blockedURI));
// Violation events are dispatched as tasks: let any pending one arrive before posting.
const post = (result) => setTimeout(() => postMessage({ result, violations }), 100);
`;
  if (probe === null) return `${collect}try { new Function('return 1'); post('allowed'); } catch (e) { post(e.name); }\n`;
  return `${collect}import(${JSON.stringify(probe)}).then(async ({ probe }) => post(await probe(await (await fetch('/input.json')).json()))).catch((e) => post({ failed: String(e) }));
`;
}

/** A server of pages under the strict CSP. */
export interface CspServer {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  close(): Promise<void>;
}

/**
 * Serves, every response under the strict CSP: for each route of `pages` an HTML page that loads
 * that module script, `/input.json`, and the `.mjs` files of `dir` and its subfolders.
 *
 * @param dir The folder whose `.mjs` files are served at their paths in it.
 * @param pages Route → the module script of its page, a path in `dir` ('main.mjs').
 * @param input What `/input.json` answers, as JSON.
 */
export async function serveUnderCsp(dir: string, pages: Readonly<Record<string, string>>, input: unknown): Promise<CspServer> {
  const page = (script: string) =>
    `<!doctype html><meta charset="utf-8"><title>adcp-decode</title><script type="module" src="/${script}"></script>`;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const headers = { 'Content-Security-Policy': CSP, 'Cache-Control': 'no-store' };
    const script = Object.hasOwn(pages, url.pathname) ? pages[url.pathname] : undefined;
    // Path segments start with a word character: no dot-folder and no way above `dir`.
    const file = /^(?:\/\w[\w.-]*)+\.mjs$/.test(url.pathname) ? path.join(dir, url.pathname) : undefined;
    if (script !== undefined) {
      res.writeHead(200, { ...headers, 'Content-Type': 'text/html; charset=utf-8' }).end(page(script));
    } else if (url.pathname === '/favicon.ico') {
      res.writeHead(204, headers).end();
    } else if (url.pathname === '/input.json') {
      res.writeHead(200, { ...headers, 'Content-Type': 'application/json' }).end(JSON.stringify(input));
    } else if (file !== undefined && existsSync(file)) {
      res.writeHead(200, { ...headers, 'Content-Type': 'text/javascript' }).end(readFileSync(file));
    } else {
      res.writeHead(404, headers).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** What a page ended with. */
export interface Visit {
  /** `window.result` */
  readonly result: unknown;
  /** The CSP violations the page (and its worker) saw: `<directive> <blocked URI>`. */
  readonly violations: readonly string[];
  /** The console's errors and any message about the Content Security Policy, and the page's uncaught errors. */
  readonly console: readonly string[];
}

/**
 * Opens a page in a fresh headless Chromium and waits for its `window.result`.
 *
 * @param url The page.
 */
export async function visit(url: string): Promise<Visit> {
  expect(existsSync(chromium), `${chromium} (apt-get install chromium, or set CHROMIUM_PATH)`).toBe(true);
  const browser = await puppeteer.launch({
    executablePath: chromium,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  try {
    const tab = await browser.newPage();
    const console: string[] = [];
    tab.on('console', (m) => {
      if (m.type() === 'error' || /Content Security Policy/i.test(m.text())) console.push(m.text());
    });
    tab.on('pageerror', (e) => console.push(String(e)));
    await tab.goto(url, { waitUntil: 'load' });
    await tab.waitForFunction('window.result !== undefined', { timeout: 60_000 });
    // Violation events are dispatched as tasks: let any pending one arrive.
    await tab.evaluate('new Promise((r) => setTimeout(r, 100))');
    return { result: await tab.evaluate('window.result'), violations: (await tab.evaluate('window.violations')) as string[], console };
  } finally {
    await browser.close();
  }
}
