/**
 * Preloaded (node --import) into a measured process: on exit, writes its peak RSS (KiB) and its
 * lifetime (ms since process start) to the file named by BENCH_RSS_OUT.
 */
import { writeFileSync } from 'node:fs';

process.on('exit', () => {
  const out = process.env.BENCH_RSS_OUT;
  if (out) writeFileSync(out, JSON.stringify({ maxRssKb: process.resourceUsage().maxRSS, ms: performance.now() }));
});
