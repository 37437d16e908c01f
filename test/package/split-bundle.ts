/**
 * An app bundled as a buyer deploys it: esbuild, ES module output split into chunks (one per
 * validator module, loaded by preload()), no other configuration.
 */
import { build, type Metafile, type Platform } from 'esbuild';

/** What a split build wrote: its warnings, its metafile and where. */
export interface SplitBundle {
  readonly warnings: string[];
  readonly metafile: Metafile;
  readonly dir: string;
}

/**
 * Bundles `entry` for `platform` into `dir`, split, `.mjs` files.
 *
 * @param app - The app's folder (esbuild's working directory).
 * @param entry - The entry file.
 * @param platform - `node`, `browser` or `neutral`.
 * @param dir - Where the files go.
 * @returns The warnings' texts, the metafile and the folder.
 * @example
 * const bundle = await splitBundle(app, path.join(app, 'probe.js'), 'browser', path.join(app, 'out'));
 */
export async function splitBundle(app: string, entry: string, platform: Platform, dir: string): Promise<SplitBundle> {
  const result = await build({
    entryPoints: [entry],
    absWorkingDir: app,
    bundle: true,
    platform,
    format: 'esm',
    splitting: true,
    outdir: dir,
    outExtension: { '.js': '.mjs' },
    metafile: true,
    logLevel: 'silent',
  });
  return { warnings: result.warnings.map((w) => w.text), metafile: result.metafile, dir };
}
