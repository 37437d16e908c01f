/**
 * The encode row of the bench (issue 21): `encode('create_media_buy', args)` (read once into a
 * bounded copy, stamp, validate, deep-freeze) against the bare request validator of the same
 * module on the same arguments already stamped, at a small (1 package) and a large (1,000
 * packages) request, with where the difference goes (the snapshot walk and the deep freeze alone)
 * and what the cheapest platform copy costs before the same validator (structuredClone).
 *
 *   npx tsx bench/run.ts --only=encode     (against dist/: npm run compile first)
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { mediaBuyRequest } from '../test/encode/requests.js';
import { goal, type HotOptions, hot, type Measurement, pairedRatio, summarize } from './harness.js';

const SECTION = 'encode create_media_buy (÷ bare request validator)';
const ROOT = fileURLToPath(new URL('..', import.meta.url));

type EncodeFn = (task: string, args: unknown) => unknown;
type Validator = (data: unknown) => boolean;

/**
 * Measures the encode row against dist/ (the built package).
 *
 * @param rounds Rounds per size (fewer with --quick).
 * @returns Per size: the bare validator, encode (with its ratio and the 1.2 goal), structuredClone +
 *   validator, the snapshot and the freeze alone.
 */
export async function encodeBench(rounds: number): Promise<Measurement[]> {
  const lib = (await import(pathToFileURL(path.join(ROOT, 'dist', 'index.js')).href)) as { encode: EncodeFn };
  const require = createRequire(import.meta.url);
  // The very module encode() loads (same path, same require cache): the floor calls the same function.
  const file = path.join(ROOT, 'dist', 'generated', 'v3_1', 'validators', 'create_media_buy.js');
  const validate = (require(file) as { request: Validator }).request;
  // From src/: dist/ is bundled, so the walks have no modules of their own there.
  const { snapshot } = await import('../src/bounds/snapshot.js');
  const { deepFreeze } = await import('../src/encode/freeze.js');
  const bounds = { maxBytes: 4 * 1024 * 1024, maxDepth: 64, maxNodes: 1_000_000 };
  const out: Measurement[] = [];
  for (const packages of [1, 1000]) {
    const args = mediaBuyRequest(packages);
    const stamped = { ...args, adcp_version: '3.1', adcp_major_version: 3 };
    const bytes = JSON.stringify(stamped).length;
    const label = `${packages} package${packages === 1 ? '' : 's'}, ${bytes < 10_000 ? `${bytes} B` : `${Math.round(bytes / 1000)} KB`}`;
    // The benchmark encodes what it measures.
    if (!validate(stamped)) throw new Error(`bench: the ${label} create_media_buy request fails its validator`);
    lib.encode('create_media_buy', args);
    const frozen = structuredClone(stamped);
    const options: HotOptions = { rounds, time: 10, iterations: packages > 100 ? 2 : 3 };
    const [bare, ours, cloned, walk, freeze] = hot(
      [
        { name: `bare request validator, ${label}`, fn: () => validate(stamped) },
        { name: `encode, ${label}`, fn: () => lib.encode('create_media_buy', args) },
        // The cheapest copy the platform offers, then the validator: what a copy-then-check costs without our checks.
        { name: `structuredClone + bare request validator, ${label}`, fn: () => validate(structuredClone(stamped)) },
        { name: `its snapshot walk alone (read once, check, copy), ${label}`, fn: () => snapshot(args, bounds, { what: 'request' }) },
        { name: `its deep-freeze walk alone (over a frozen copy), ${label}`, fn: () => deepFreeze(frozen) },
      ],
      options,
    );
    const ratio = pairedRatio(ours!, bare!);
    out.push(summarize(SECTION, bare!));
    out.push(summarize(SECTION, ours!, { baseline: 'bare request validator', ratio, ...goal(1.2, ratio) }));
    out.push(summarize(SECTION, cloned!, { baseline: 'bare request validator', ratio: pairedRatio(cloned!, bare!) }));
    out.push(summarize(SECTION, walk!, { baseline: 'bare request validator', ratio: pairedRatio(walk!, bare!) }));
    out.push(summarize(SECTION, freeze!, { baseline: 'bare request validator', ratio: pairedRatio(freeze!, bare!) }));
  }
  return out;
}
