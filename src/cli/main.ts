#!/usr/bin/env node
/**
 * adcp-decode, the bin: runs the command line (run.ts) on this process's arguments and streams and
 * exits with its status (0 ok, 1 did not decode, 2 usage error, 3 no answer from a live seller,
 * 4 a bound passed calling one).
 */
import { run } from './run.js';

process.stdout.on('error', () => undefined); // a closed pipe (| head) is not an error
const [command, ...rest] = process.argv.slice(2);
// `generate` (src/generate/command.ts) is loaded only for that command: decoding never loads the generator.
process.exitCode =
  command === 'generate'
    ? await (await import('../generate/command.js')).generateCommand(rest, process)
    : await run(process.argv.slice(2), process);
