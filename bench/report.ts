/**
 * Writes the figures of the last `npm run bench` (bench/results.json) into docs/benchmarks.md,
 * between its `bench:begin` and `bench:end` markers, so the document holds the current figures
 * and nothing else keeps a second copy of them.
 *
 *   npm run bench && npx tsx bench/report.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Measurement, markdownTable } from './harness.js';

interface Results {
  readonly date: string;
  readonly node: string;
  readonly cpus: number;
  readonly loadAverage: { readonly start: readonly number[]; readonly end: readonly number[] };
  readonly quick: boolean;
  readonly hotClock: string;
  readonly durationMs: number;
  readonly payloads: readonly { readonly label: string; readonly bytes: number }[];
  readonly notes: readonly string[];
  readonly measurements: readonly Measurement[];
}

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const BEGIN = '<!-- bench:begin (bench/report.ts writes this part) -->';
const END = '<!-- bench:end -->';

function renderResults(r: Results): string {
  const load = (l: readonly number[]) => (l[0] ?? Number.NaN).toFixed(1);
  const lines = [
    `${r.date.slice(0, 10)}, Node ${r.node.replace(/^v/, '')}, ${r.cpus} CPUs, load average ${load(r.loadAverage.start)} → ${load(r.loadAverage.end)}, ${(r.durationMs / 1000).toFixed(0)} s${r.quick ? ', --quick' : ''}; hot loops on ${r.hotClock === 'cpu' ? 'process CPU time' : 'wall time'}.`,
    `Payloads: ${r.payloads.map((p) => `${p.label} ${p.bytes.toLocaleString('en-US')} B`).join(', ')}.`,
    '',
    markdownTable(r.measurements),
  ];
  if (r.notes.length > 0) lines.push('', ...r.notes.map((n) => `- ${n}`));
  return lines.join('\n');
}

function main(): void {
  const results = JSON.parse(readFileSync(path.join(ROOT, 'bench', 'results.json'), 'utf8')) as Results;
  const file = path.join(ROOT, 'docs', 'benchmarks.md');
  const doc = readFileSync(file, 'utf8');
  const begin = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  if (begin < 0 || end < begin) throw new Error(`docs/benchmarks.md lacks the markers ${BEGIN} … ${END}`);
  writeFileSync(file, `${doc.slice(0, begin + BEGIN.length)}\n${renderResults(results)}\n${doc.slice(end)}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
