/**
 * One fresh process (spawned by bench/run.ts, hostile section): builds the worst issue listing the
 * bounds of src/validate/issue-listing.ts allow (bench/payloads.ts worstIssues), then, when asked, prints
 * it with formatIssues and serializes it with JSON.stringify. Prints one JSON line: the time of
 * each step and the peak RSS of the process, so a run with `build` alone is the baseline.
 *
 *   node --import tsx bench/issue-listing.ts build|format
 */
// From src/ (tsx): dist/ is bundled, so these internal modules have no file of their own there.
import { SchemaMismatchError } from '../src/errors/errors.js';
import { formatIssues } from '../src/errors/format.js';
import { boundIssues, MAX_ISSUES } from '../src/validate/issue-listing.js';
import { worstIssues } from './payloads.js';

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
