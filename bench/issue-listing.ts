/**
 * One fresh process (spawned by bench/run.ts, hostile section): builds the worst issue listing the
 * bounds of src/issue-listing.ts allow (bench/payloads.ts worstIssues), then, when asked, prints
 * it with formatIssues and serializes it with JSON.stringify. Prints one JSON line: the time of
 * each step and the peak RSS of the process, so a run with `build` alone is the baseline.
 *
 *   node --import tsx bench/issue-listing.ts build|format
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { worstIssues } from './payloads.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const dist = (file: string) => pathToFileURL(path.join(ROOT, 'dist', file)).href;
const { boundIssues, MAX_ISSUES } = (await import(dist('issue-listing.js'))) as typeof import('../src/issue-listing.js');
const { SchemaMismatchError } = (await import(dist('errors.js'))) as typeof import('../src/errors.js');
const { formatIssues } = (await import(dist('format.js'))) as typeof import('../src/format.js');

const mode = process.argv[2];
const t0 = performance.now();
const listing = boundIssues(worstIssues(4 * 1024 * 1024, 2 * MAX_ISSUES));
const error = new SchemaMismatchError('worst', {
  schemaId: 'bench',
  issues: listing.issues,
  issuesComplete: listing.complete,
  issuesShortened: listing.shortened,
});
const buildMs = performance.now() - t0;
let formatMs = 0;
let stringifyMs = 0;
let chars = 0;
if (mode === 'format') {
  const t1 = performance.now();
  chars += formatIssues(error).length;
  formatMs = performance.now() - t1;
  const t2 = performance.now();
  chars += JSON.stringify(error.issues).length;
  stringifyMs = performance.now() - t2;
}
process.stdout.write(
  `${JSON.stringify({ issues: listing.issues.length, buildMs, formatMs, stringifyMs, chars, maxRssKb: process.resourceUsage().maxRSS })}\n`,
);
