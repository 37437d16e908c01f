#!/usr/bin/env node
/**
 * adcp-decode, the bin: runs the command line (run.ts) on this process's arguments and streams and
 * exits with its status (0 ok, 1 did not decode, 2 usage error, 3 no answer from a live seller,
 * 4 a bound passed calling one).
 */
import { run } from './run.js';

process.stdout.on('error', () => undefined); // a closed pipe (| head) is not an error
process.exitCode = await run(process.argv.slice(2), process);
