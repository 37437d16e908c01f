#!/usr/bin/env node
/**
 * adcp-decode, the bin: runs the command line (run.ts) on this process's arguments and streams and
 * exits with its status (0 decoded, 1 did not decode, 2 usage error).
 */
import { run } from './run.js';

process.stdout.on('error', () => undefined); // a closed pipe (| head) is not an error
process.exitCode = await run(process.argv.slice(2), process);
