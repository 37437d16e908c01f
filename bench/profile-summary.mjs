/**
 * Self time by function (and by file) of a V8 .cpuprofile, the top entries.
 *
 *   node bench/profile-summary.mjs [--top=25] <file.cpuprofile>...
 *
 * Given several files (a loader thread writes its own), the one with the most samples is read.
 */
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const top = args.find((a) => a.startsWith('--top='))?.slice(6) ?? '25';
const profile = args
  .filter((a) => !a.startsWith('--'))
  .map((f) => JSON.parse(readFileSync(f, 'utf8')))
  .sort((a, b) => b.samples.length - a.samples.length)[0];
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const dt = new Map();
for (let i = 0; i < profile.samples.length; i++) {
  const id = profile.samples[i];
  dt.set(id, (dt.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
}
const self = new Map();
const files = new Map();
let total = 0;
for (const [id, us] of dt) {
  const { callFrame: f } = byId.get(id);
  const where = f.url.split('/').slice(-2).join('/');
  const name = f.functionName || '(anonymous)';
  const key = `${name.length > 90 ? `${name.slice(0, 90)}…` : name}  ${where}:${f.lineNumber + 1}`;
  self.set(key, (self.get(key) ?? 0) + us);
  const fileKey = (where || name).slice(0, 90);
  files.set(fileKey, (files.get(fileKey) ?? 0) + us);
  total += us;
}
const show = (map) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, Number(top))
    .map(([k, us]) => `${((100 * us) / total).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms  ${k}`)
    .join('\n');
console.log(`total ${(total / 1000).toFixed(0)} ms\n\nby function (self):\n${show(self)}\n\nby file (self):\n${show(files)}`);
