/**
 * The loop bench/profile.ts runs under `node --cpu-prof`: one case, for some seconds.
 *
 *   node --cpu-prof bench/profile-loop.mjs <kind>-<size> <payload.json> [seconds]
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const [which, file, seconds = '5'] = process.argv.slice(2);
const kind = which.split('-')[0];
const { task, payload } = JSON.parse(readFileSync(file, 'utf8'));
const { decode } = await import('../dist/index.js');
const validate = createRequire(import.meta.url)(`../dist/generated/v3_1/validators/${task}.js`).response;
const raw = JSON.stringify(payload);
const text = { content: [{ type: 'text', text: raw }] };
const structured = { structuredContent: payload, content: [{ type: 'text', text: 'summary' }] };
// The "many errors" rejection: every product loses a required field and gets bad values.
const invalid = JSON.parse(raw);
for (const p of invalid.products ?? []) {
  delete p.reporting_capabilities;
  p.delivery_type = 'sometimes';
  for (const o of p.pricing_options) o.currency = 'dollars';
}
const invalidText = { content: [{ type: 'text', text: JSON.stringify(invalid) }] };
const fn = {
  invalid: () => {
    try {
      decode(task, invalidText);
    } catch {
      return;
    }
    throw new Error('the invalid payload decoded');
  },
  text: () => decode(task, text),
  structured: () => decode(task, structured),
  floor: () => validate(JSON.parse(raw)),
  bare: () => validate(payload),
}[kind];
if (fn === undefined) throw new Error(`unknown kind ${kind}`);
const end = performance.now() + Number(seconds) * 1000;
let n = 0;
while (performance.now() < end) {
  fn();
  n++;
}
console.log(`${which}: ${n} calls, ${((Number(seconds) * 1000) / n).toFixed(4)} ms each`);
