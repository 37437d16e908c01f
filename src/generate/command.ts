/**
 * `adcp-decode generate <source> --out <dir>`: writes a release module (module.ts) from a
 * release's schema folder or the spec's signed tarball. The CLI loads this module only for this
 * command; it checks the generator's peers (peers.ts) before it loads the code that imports them
 * (run.ts), so that a missing one is one line naming the install command, not a stack trace.
 *
 * Exit status: 0 written, 1 not written (the source refused, a peer missing, a phase failed),
 * 2 usage error.
 */
import { readFileSync } from 'node:fs';
import { checkPeers } from './peers.js';
import type { GenerateOptions } from './run.js';

/** Where the command writes. */
interface Io {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
}

const NAME = 'adcp-decode generate';

/** What `adcp-decode generate --help` prints. */
export const GENERATE_HELP = `Usage:
  adcp-decode generate <source> --out <dir> [options]

Writes a release module into <dir> (replaced whole): the release's types (index.d.ts, types.d.ts),
its validators compiled ahead of time (validators/, chunks/: no eval, one module per task) and its
manifest's facts as data (index.js). Import it once before decoding:
  import './<dir>/index.js';   then   decode(task, answer, { version: '<its version>' })

<source> is a release's schema folder (the spec's dist/schemas/<version>/, with manifest.json and
index.json) or its signed protocol tarball <version>.tgz, checked against <version>.tgz.sha256
beside it before anything in it is read.

Options:
  --out <dir>             where the module goes (required)
  --sha256 <hex>          the tarball's SHA-256, when no .sha256 file is beside it
  --patch-history <dir>   earlier patches of the release (index.json, <patch>/<file>): an answer
                          one of them accepts is accepted, and says which (patch)
  --index <file>          the spec's schemas/index.json, to refuse a withdrawn or unpublished release
  -h, --help              show this help

Needs ajv, ajv-formats, json-schema-to-typescript and tar (optional peer dependencies):
  npm install --save-dev ajv ajv-formats json-schema-to-typescript tar

Exit status: 0 written, 1 not written (the reason on stderr), 2 usage error.`;

/** The options that take a value, by flag. */
const VALUE_FLAGS = { '--out': 'out', '--sha256': 'sha256', '--patch-history': 'patchHistory', '--index': 'index' } as const;

type Flag = keyof typeof VALUE_FLAGS;

function isFlag(arg: string): arg is Flag {
  return Object.hasOwn(VALUE_FLAGS, arg);
}

/** A usage error: one line. */
class Usage extends Error {}

/** The command line read into options, or a usage error. */
function parse(argv: readonly string[]): GenerateOptions | 'help' {
  const values: { -readonly [K in (typeof VALUE_FLAGS)[Flag]]?: string } = {};
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '-h' || arg === '--help') return 'help';
    const eq = arg.indexOf('=');
    const flag = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
    if (isFlag(flag)) {
      const value = eq > 0 && flag !== arg ? arg.slice(eq + 1) : argv[++i];
      if (value === undefined || value === '') throw new Usage(`${flag} needs a value`);
      if (values[VALUE_FLAGS[flag]] !== undefined) throw new Usage(`${flag} is given twice`);
      values[VALUE_FLAGS[flag]] = value;
    } else if (arg.startsWith('-') && arg !== '-')
      throw new Usage(`unknown option ${JSON.stringify(arg.slice(0, 60))}; expected ${Object.keys(VALUE_FLAGS).join(', ')} or --help`);
    else positional.push(arg);
  }
  if (positional.length !== 1)
    throw new Usage(
      positional.length === 0
        ? 'expected a <source>: a release schema folder or <version>.tgz'
        : `expected one <source>, got ${positional.length}`,
    );
  if (values.out === undefined) throw new Usage('expected --out <dir>: the folder the release module goes to');
  return { source: positional[0]!, out: values.out, sha256: values.sha256, patchHistory: values.patchHistory, index: values.index };
}

/** This package's version, from its package.json (two folders up, in src/ as in dist/). */
function ownVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
  return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
}

/**
 * Runs `adcp-decode generate` with the arguments after `generate`.
 *
 * @param argv The arguments.
 * @param io Where it prints: what was written on stdout, a refusal on stderr.
 * @returns The exit status: 0 written, 1 not written, 2 usage error.
 * @throws Never: every failure is a line on stderr and a status.
 * @example
 * process.exitCode = await generateCommand(['3.2.1.tgz', '--out', 'adcp/3.2.1'], process);
 */
export async function generateCommand(argv: readonly string[], io: Io): Promise<number> {
  let options: GenerateOptions | 'help';
  try {
    options = parse(argv);
  } catch (error) {
    io.stderr.write(`${NAME}: ${(error as Error).message} (${NAME} --help)\n`);
    return 2;
  }
  if (options === 'help') {
    io.stdout.write(`${GENERATE_HELP}\n`);
    return 0;
  }
  const peers = checkPeers(import.meta.url);
  if (peers.problem !== undefined) {
    io.stderr.write(`${NAME}: ${peers.problem}\n`);
    return 1;
  }
  const t0 = performance.now();
  try {
    const { generateRelease } = await import('./run.js');
    const info = {
      generator: `adcp-decode ${ownVersion()}`,
      tools: peers.tools,
      regenerate: `npx adcp-decode generate <source> --out <dir>`,
    };
    const done = await generateRelease(options, info);
    const seconds = ((performance.now() - t0) / 1000).toFixed(1);
    io.stdout.write(
      `${NAME}: AdCP ${done.version} (pin "${done.release}", source sha256 ${done.sha256}): ${done.tasks} tasks, ${done.patchValidators} patch validators → ${options.out} (${done.files} files, ${(done.bytes / 1e6).toFixed(1)} MB) in ${seconds} s\n` +
        (done.opened.length === 0 ? '' : `  compiled open, as their schemas say (any value accepted): ${done.opened.join(', ')}\n`) +
        `  import it once before decoding: import '<path to ${options.out}>/index.js';\n`,
    );
    return 0;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    io.stderr.write(`${NAME}: ${message.split('\n')[0]!.slice(0, 1000)}; nothing was written\n`);
    return 1;
  }
}
