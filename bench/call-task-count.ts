/**
 * One arm of the callTask row in a process of its own, for an instruction count: after `warm`
 * calls, `calls` more, then exit. Run it twice per arm under `valgrind --tool=callgrind` with two
 * call counts; the difference of the totals divided by the difference of the counts is one call's
 * instructions (client, seller and GC alike: the seller is in this process), which this loaded
 * machine repeats where wall time does not.
 *
 *   valgrind --tool=callgrind --callgrind-out-file=/tmp/ct.%p node --import tsx bench/call-task-count.ts typed 20 10
 */
import { loopbackCalls } from './call-task.js';

const [arm = '', warm = '20', calls = '10', label = 'get_products 2KB'] = process.argv.slice(2);
const loopback = await loopbackCalls(label);
const fn = { hand: loopback.byHand, typed: loopback.typed, options: loopback.withOptions, scoped: loopback.scoped }[arm];
if (fn === undefined) throw new Error(`unknown arm "${arm}": hand, typed, options or scoped`);
for (let i = 0; i < Number(warm) + Number(calls); i++) await fn();
await loopback.close();
