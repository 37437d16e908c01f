/**
 * The command-line transcripts are what the CLI prints today: every `$ adcp-decode ...` line of the
 * README's Command line section (its successes and the exact output of a failure) and of
 * docs/cli.md is run by a shell, in the repository's root, with `adcp-decode` on PATH as the built
 * bin (dist/cli/main.js), and what it prints (stdout, then stderr) must be the lines the page shows
 * under it. Needs a build (`npm test` runs one first). Transcripts of a live seller (`console`
 * blocks) are readme-cli-live.test.ts's.
 */
import { afterAll, expect, test } from 'vitest';
import { binShell, pageTranscripts } from './transcripts.js';

const { inReadme, inDocs } = pageTranscripts('');
const shown = [...inReadme, ...inDocs];
const shell = binShell();
afterAll(() => shell.close());

test('the README shows the CLI at work, with the exact output of a failure; docs/cli.md its usage errors', () => {
  expect(shown.map((t) => t.command.split(' ')[0])).toContain('adcp-decode');
  expect(shown.length).toBeGreaterThanOrEqual(7);
  expect(shown.every((t) => t.printed.length > 0)).toBe(true);
  expect(inReadme.filter((t) => t.printed[0]?.startsWith('✔ '))).not.toEqual([]);
  expect(
    inReadme.filter((t) => /^✖ \w+: SCHEMA_MISMATCH /.test(t.printed[0] ?? '') && t.printed.some((line) => line.includes('→ at '))),
  ).not.toEqual([]);
});

test.each(shown.map((t) => [t.command, t] as const))('`$ %s` prints what the page shows', { timeout: 60_000 }, async (_, t) => {
  expect(await shell.printed(t.command)).toEqual(t.printed);
});
