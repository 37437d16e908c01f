/**
 * Profiles one benchmark case: writes its input, runs bench/profile-loop.mjs under
 * `node --cpu-prof` (bare node, no TypeScript loader in the profile) and prints the self time by
 * function and by file (bench/profile-summary.mjs).
 *
 *   npx tsx bench/profile.ts <case> [seconds] [--keep]
 *
 * Cases: <kind>-<size>, kind one of text (decode content[0].text), structured (decode
 * structuredContent), floor (JSON.parse + validator), bare (validator alone), invalid (decode of
 * the payload made invalid in many places, as in the rejections section); size one of 2KB,
 * 100KB, 1MB, cmb (create_media_buy). E.g. `npx tsx bench/profile.ts text-1MB 10`.
 *
 * The webhook receiver: `receive-10KB` or `receive-20KB` (bench/webhooks.ts's deliveries, signed
 * before the profile starts; the second argument is then the number of deliveries, default 5,000),
 * profiled in this process with the inspector around the `receive()` loop alone (bench/profile-receive.ts).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchPayloads } from './payloads.js';
import { profileReceive } from './profile-receive.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const [which = 'text-100KB', seconds] = args;
const size = which.split('-')[1] ?? '100KB';
const dir = mkdtempSync(path.join(os.tmpdir(), 'adcp-profile-'));
if (which.startsWith('receive-')) {
  const bytes = { '10KB': 10_000, '20KB': 20_000 }[size];
  if (bytes === undefined) throw new Error(`unknown case ${which}: receive-10KB or receive-20KB`);
  const count = Number(seconds ?? 5_000);
  const ms = await profileReceive(bytes, count, path.join(dir, 'receive.cpuprofile'));
  console.log(`${which}: ${count} deliveries, ${ms.toFixed(4)} ms each (wall time, profiler on)`);
} else {
  const entry = benchPayloads()[size === 'cmb' ? 'create_media_buy' : `get_products ${size}`];
  if (entry === undefined) throw new Error(`unknown case ${which}`);
  const input = path.join(dir, 'payload.json');
  writeFileSync(input, JSON.stringify(entry));
  const loop = spawnSync(
    process.execPath,
    ['--cpu-prof', `--cpu-prof-dir=${dir}`, path.join(ROOT, 'bench', 'profile-loop.mjs'), which, input, seconds ?? '5'],
    { stdio: 'inherit' },
  );
  if (loop.status !== 0) process.exit(loop.status ?? 1);
}
const profiles = readdirSync(dir)
  .filter((f) => f.endsWith('.cpuprofile'))
  .map((f) => path.join(dir, f));
spawnSync(process.execPath, [path.join(ROOT, 'bench', 'profile-summary.mjs'), ...profiles], { stdio: 'inherit' });
if (process.argv.includes('--keep')) console.log(`profile kept in ${dir}`);
else rmSync(dir, { recursive: true, force: true });
