/**
 * Every relative link of the README and of docs/ resolves: the file or folder it names exists in the
 * repository, and an anchor names a heading of its page, slugged as GitHub slugs headings. Links to
 * the web are not followed.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { REPO_ROOT } from '../../scripts/schema-paths.js';

/** The README and every page of docs/, as paths from the repository's root. */
const PAGES = [
  'README.md',
  ...readdirSync(path.join(REPO_ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
];

/** A Markdown text without its fenced code blocks, where a `#` line is a heading and `[..](..)` a link. */
function withoutFences(markdown: string): string {
  return markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '');
}

/** GitHub's anchor for each heading: link text kept, lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const [, text = ''] of withoutFences(markdown).matchAll(/^#{1,6} (.*)$/gm)) {
    const base = text
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
      .replace(/ /g, '-');
    const repeats = seen.get(base) ?? 0;
    seen.set(base, repeats + 1);
    out.add(repeats === 0 ? base : `${base}-${repeats}`);
  }
  return out;
}

/** One relative link: the page it is on, and its target as written. */
interface Link {
  readonly page: string;
  readonly target: string;
}

/** The relative links of a page, outside code blocks and code spans. */
function relativeLinks(page: string): Link[] {
  const prose = withoutFences(readFileSync(path.join(REPO_ROOT, page), 'utf8')).replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map(([, target = '']) => ({ page, target }))
    .filter(({ target }) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

/** Why a link does not resolve, or undefined when it does. */
function broken({ page, target }: Link): string | undefined {
  const [file = '', anchor] = target.split('#');
  const resolved = file === '' ? page : path.posix.normalize(path.posix.join(path.posix.dirname(page), file));
  if (resolved.startsWith('../') || !existsSync(path.join(REPO_ROOT, resolved))) return `${resolved}: no such file`;
  if (anchor === undefined || !resolved.endsWith('.md')) return undefined;
  return anchors(readFileSync(path.join(REPO_ROOT, resolved), 'utf8')).has(anchor) ? undefined : `${resolved}: no heading #${anchor}`;
}

const links = PAGES.flatMap(relativeLinks);

test('the README links the reference pages, and the pages link each other', () => {
  for (const page of ['decode', 'calling', 'fetch', 'webhooks', 'signing', 'versions', 'cli'])
    expect(links.filter((l) => l.page === 'README.md').map((l) => l.target.split('#')[0])).toContain(`docs/${page}.md`);
  expect(links.filter((l) => l.page !== 'README.md' && l.target.includes('#')).length).toBeGreaterThan(10);
});

test('the anchors are GitHub slugs: punctuation and code marks dropped, repeats numbered', () => {
  expect([...anchors('## decode(task, input, options?)\n## Option `request`: checks\n# A\n# A\n```\n# not a heading\n```\n')]).toEqual([
    'decodetask-input-options',
    'option-request-checks',
    'a',
    'a-1',
  ]);
});

test.each(PAGES)('every relative link of %s resolves', (page) => {
  const failures = links.filter((l) => l.page === page).flatMap((l) => broken(l) ?? []);
  expect(failures).toEqual([]);
});
