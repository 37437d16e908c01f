/** The fuzzer's command line: the options of `npm run fuzz` (see main.ts) and their defaults. */
import { availableParallelism } from 'node:os';
import type { Profile } from './context.js';

/**
 * `decode`: decode() and the extractors (case.ts); `webhooks`: the receiver and polling (webhook-case.ts);
 * `a2a-stream`: foldA2aStream and decode() of what it folds (a2a-stream-case.ts), and a quarter of hostile
 * answers read by the real @a2a-js/sdk clients through safeCallTask (a2a-sdk-case.ts).
 */
export type Lane = 'decode' | 'webhooks' | 'a2a-stream';

/** The parsed options. */
export interface Args {
  seed: number;
  runs: number;
  /** The first case index (cases from .. from + runs). */
  from: number;
  workers: number;
  batch: number;
  hangMs: number;
  slowMs: number;
  profile: Profile;
  lane: Lane;
  out: string;
  maxOldMb: number;
  case: number | undefined;
}

type NumberOption = 'seed' | 'runs' | 'from' | 'workers' | 'batch' | 'hangMs' | 'slowMs' | 'maxOldMb' | 'case';

/** The options that take a non-negative integer, and the least value each keeps (a pool needs a worker). */
const NUMBER_FLAGS: Readonly<Record<string, readonly [NumberOption, number]>> = {
  '--seed': ['seed', 0],
  '--runs': ['runs', 0],
  '--from': ['from', 0],
  '--workers': ['workers', 1],
  '--batch': ['batch', 1],
  '--hang-ms': ['hangMs', 0],
  '--slow-ms': ['slowMs', 0],
  '--max-old-mb': ['maxOldMb', 0],
  '--case': ['case', 0],
};

/**
 * Parses the fuzzer's options.
 *
 * @param argv - The arguments after the script.
 * @returns The options, defaults filled in (a random seed, 10,000 cases, one worker per core).
 * @throws {Error} An unknown option, or a value of the wrong kind.
 * @example
 * parseArgs(['--seed', '1', '--runs', '1000']).runs; // 1000
 */
export function parseArgs(argv: readonly string[]): Args {
  const args: Args = {
    seed: Math.floor(Math.random() * 2 ** 31),
    runs: 10_000,
    from: 0,
    workers: availableParallelism(),
    batch: 1_000,
    hangMs: 10_000,
    slowMs: 2_000,
    profile: 'full',
    lane: 'decode',
    out: '.fuzz',
    maxOldMb: 2_048,
    case: undefined,
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    const numeric = flag === undefined ? undefined : NUMBER_FLAGS[flag];
    if (numeric !== undefined) {
      const n = Number(value);
      if (value === undefined || !Number.isInteger(n) || n < 0)
        throw new Error(`${flag} expects a non-negative integer, got ${String(value)}`);
      const [key, least] = numeric;
      args[key] = Math.max(least, n);
      i++;
    } else if (flag === '--profile') {
      if (value !== 'full' && value !== 'ci') throw new Error(`--profile expects full or ci, got ${String(value)}`);
      args.profile = value;
      i++;
    } else if (flag === '--lane') {
      if (value !== 'decode' && value !== 'webhooks' && value !== 'a2a-stream')
        throw new Error(`--lane expects decode, webhooks or a2a-stream, got ${String(value)}`);
      args.lane = value;
      i++;
    } else if (flag === '--out') {
      if (value === undefined) throw new Error('--out expects a directory');
      args.out = value;
      i++;
    } else {
      throw new Error(`unknown option ${String(flag)}; see the header of scripts/fuzz/main.ts`);
    }
  }
  return args;
}
