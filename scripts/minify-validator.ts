/**
 * The validator modules as dist/ ships them: minified by esbuild (whitespace, syntax and names; a
 * third of the bytes), the generated banner kept as their first line, without the sources'
 * SHA-256 (the release object states it once, `sourceSha256`, instead of five hundred times). Names too: the functions'
 * are content hashes (`v_0j3p1rlsv6`), which tell a reader nothing a file and column do not, and
 * keeping them (`keepNames`) costs a call per function that a buyer's minifying bundler cannot
 * drop (the split bundle of adcp-decode/3.1: 0.74 -> 0.81 MB gzipped). src/generated/ stays as
 * codegen writes it, one statement per line, for the tests and a reader.
 */
import { transformSync } from 'esbuild';

/** The leading `//` lines of a generated module: the banner naming its generator and releases, each source's SHA-256 left out. */
function bannerOf(code: string): string {
  const lines = code.split('\n');
  const end = lines.findIndex((line) => !line.startsWith('//'));
  return end <= 0
    ? ''
    : `${lines
        .slice(0, end)
        .join('\n')
        .replace(/ \(source sha256 [0-9a-f]{64}\)/g, '')}\n`;
}

/**
 * One validator module (an entry, a chunk or an import map) minified: the same exports, the same
 * behaviour, the same bytes for the same input (esbuild is pinned by the lock).
 *
 * @param code The module's text as codegen wrote it.
 * @returns The minified text, its banner first (without the sources' SHA-256).
 * @throws Error when esbuild cannot parse the module.
 * @example
 * writeFileSync(to, minifyValidator(readFileSync(from, 'utf8')));
 */
export function minifyValidator(code: string): string {
  const out = transformSync(code, {
    loader: 'js',
    format: 'esm',
    target: 'es2022',
    minify: true,
    charset: 'utf8',
    legalComments: 'none',
  });
  return `${bannerOf(code)}${out.code}`;
}
