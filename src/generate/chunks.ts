/**
 * The validator modules of every release: the declarations of Ajv's modules (one per release and
 * variant, named by content in names.ts) placed once each, in modules a loader or a bundler
 * follows by static imports. Every entry module (`<v>/validators/<entry>.js`, `.errors.js` for the
 * listing) holds what only it reaches; what several entries reach goes into a chunk
 * (`chunks/<hash>.js`, named by its text), first one per set of entries that reach it. Then
 * modules merge, the most profitable pair first, while merging makes what the entries load
 * cheaper (bytes, and MODULE_COST per module): two chunks, or a chunk into the module of an entry
 * that loads it (the other entries that need the chunk then import that entry's module). A module
 * serves one set of releases: a buyer of one release never loads another's code.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Named } from './names.js';
import { banner, type Stamp, type ValidatorLayout } from './output.js';

/** An entry module: where it goes, its release, and its exports (export name → content name). */
export interface EntryModule {
  /** Its path in the generated folder, e.g. `v3_1/validators/get_products.errors.js`. */
  readonly file: string;
  readonly version: string;
  readonly exports: ReadonlyMap<string, string>;
  /** True for a listing module, which re-exports the listing's stop (ListingStopped, listingLimit). */
  readonly listing: boolean;
}

/**
 * What loading one more module costs, in bytes of code that cost as much to load: Node's require()
 * of get_products' validators cost about 3 million instructions more per module they were split
 * into (18 modules: 55 million, callgrind), each KB of Ajv's code about 0.15 million; of the costs
 * tried (12, 32, 64 KB), 32 KB made the first passing and failing get_products decodes cheapest.
 */
const MODULE_COST = 32 * 1024;

interface Chunk {
  decls: string[];
  /** The entries that load it, as indexes into the entry list. */
  users: Set<number>;
  bytes: number;
  /** The releases of its users, as one key. */
  readonly releases: string;
  /** The entry whose module it is, if it is one (an entry module absorbs chunks, never another entry). */
  readonly entry?: number;
}

/** The declarations the entries `which` reach (but those `homed` already), and so the entries that reach each declaration. */
function usersOf(
  entries: readonly EntryModule[],
  named: ReadonlyMap<string, Named>,
  which: readonly number[],
  homed: ReadonlySet<string>,
): Map<string, Set<number>> {
  const users = new Map<string, Set<number>>();
  for (const e of which) {
    const stack = [...entries[e]!.exports.values()];
    for (let name = stack.pop(); name !== undefined; name = stack.pop()) {
      // A declaration placed already (and so everything it uses) is imported from its module.
      if (homed.has(name)) continue;
      const seen = users.get(name) ?? new Set<number>();
      if (seen.has(e)) continue;
      seen.add(e);
      users.set(name, seen);
      const decl = named.get(name);
      if (decl === undefined) throw new Error(`generate: chunks met ${name}, which no module declares`);
      stack.push(...decl.uses);
    }
  }
  return users;
}

/** The first chunks: one per set of entries that reach a declaration. */
function chunksByUsers(
  entries: readonly EntryModule[],
  named: ReadonlyMap<string, Named>,
  which: readonly number[],
  homed: ReadonlySet<string>,
): Chunk[] {
  const bySet = new Map<string, Chunk>();
  for (const [name, users] of usersOf(entries, named, which, homed)) {
    const key = [...users].sort((a, b) => a - b).join(',');
    let chunk = bySet.get(key);
    if (chunk === undefined) {
      const releases = [...new Set([...users].map((e) => entries[e]!.version))].sort().join(',');
      chunk = { decls: [], users, bytes: 0, releases };
      bySet.set(key, chunk);
    }
    chunk.decls.push(name);
    chunk.bytes += named.get(name)!.code.length;
  }
  return [...bySet.values()];
}

/** What merging two chunks changes in the sum over entries of bytes loaded + `moduleCost` per module. */
function mergeGain(a: Chunk, b: Chunk, moduleCost: number): number {
  let both = 0;
  for (const u of a.users) if (b.users.has(u)) both++;
  return (a.users.size - both) * b.bytes + (b.users.size - both) * a.bytes - both * moduleCost;
}

/** A patch fallback's entry module (src/generate/patches.ts), loaded only when the bundled validator refuses. */
function isPatchEntry(entry: EntryModule): boolean {
  return path.posix.basename(entry.file).startsWith('patch-');
}

/** What the modules being merged know: the declarations and their homes, the entries' exports. */
interface Graph {
  readonly named: ReadonlyMap<string, Named>;
  readonly home: Map<string, Chunk>;
  readonly entries: readonly EntryModule[];
}

/** The modules a module imports from: those of the declarations it uses, and of an entry's exports. */
function importsOf(chunk: Chunk, { named, home, entries }: Graph): Set<Chunk> {
  const out = new Set<Chunk>();
  const needed = chunk.decls.flatMap((d) => named.get(d)!.uses);
  if (chunk.entry !== undefined) needed.push(...entries[chunk.entry]!.exports.values());
  for (const u of needed) {
    const c = home.get(u);
    if (c !== undefined && c !== chunk) out.add(c);
  }
  return out;
}

/** Whether one module made of `a` and `b` would import itself: a path a → x → … → b, or back, through another chunk. */
function closesCycle(a: Chunk, b: Chunk, graph: Graph): boolean {
  for (const [from, to] of [
    [a, b],
    [b, a],
  ] as const) {
    const stack = [...importsOf(from, graph)].filter((c) => c !== to);
    const seen = new Set<Chunk>(stack);
    for (let c = stack.pop(); c !== undefined; c = stack.pop()) {
      for (const next of importsOf(c, graph)) {
        if (next === to) return true;
        if (!seen.has(next)) {
          seen.add(next);
          stack.push(next);
        }
      }
    }
  }
  return false;
}

/**
 * Merges modules of the same releases, the most profitable pair first, while a merge lowers the
 * cost of what the entries load; two entry modules never, and never into an import cycle.
 * Deterministic: ties go to the pair met first in the modules' order.
 */
function merge(chunks: readonly Chunk[], graph: Omit<Graph, 'home'>, moduleCost: number): Chunk[] {
  const live = [...chunks];
  const home = new Map<string, Chunk>();
  for (const c of live) for (const d of c.decls) home.set(d, c);
  const full: Graph = { ...graph, home };
  // Gains of the pairs that share an entry (no other merge can pay), kept up to date.
  const gains = new Map<Chunk, Map<Chunk, number>>(live.map((c) => [c, new Map()]));
  const pair = (a: Chunk, b: Chunk): void => {
    const mergeable = a.releases === b.releases && (a.entry === undefined || b.entry === undefined);
    const gain = mergeable && [...a.users].some((u) => b.users.has(u)) ? mergeGain(a, b, moduleCost) : 0;
    if (gain < 0) gains.get(a)!.set(b, gain);
    else gains.get(a)!.delete(b);
  };
  live.forEach((a, i) => {
    for (const b of live.slice(i + 1)) pair(a, b);
  });
  for (;;) {
    let best: [Chunk, Chunk, number] | undefined;
    for (const a of live) for (const [b, gain] of gains.get(a)!) if (best === undefined || gain < best[2]) best = [a, b, gain];
    if (best === undefined) return live;
    // An entry's module stays where the loader finds it: it absorbs the chunk.
    const [a, b] = best[1].entry === undefined ? best : [best[1], best[0]];
    gains.get(best[0])!.delete(best[1]);
    if (closesCycle(a, b, full)) continue;
    a.decls.push(...b.decls);
    for (const u of b.users) a.users.add(u);
    a.bytes += b.bytes;
    for (const d of b.decls) home.set(d, a);
    live.splice(live.indexOf(b), 1);
    gains.delete(b);
    for (const c of live) if (c !== a) live.indexOf(c) < live.indexOf(a) ? pair(c, a) : pair(a, c);
    for (const m of gains.values()) m.delete(b);
  }
}

/** A module being written: an entry (fixed path) or a chunk (named by its text once written). */
interface Place {
  readonly decls: string[];
  file?: string;
  readonly entry?: EntryModule;
  readonly versions: readonly string[];
}

/** A module's declarations, each after those of the same module it uses (sorted by name otherwise). */
function ordered(place: Place, home: ReadonlyMap<string, Place>, named: ReadonlyMap<string, Named>): Named[] {
  const out: Named[] = [];
  const done = new Set<string>();
  const visit = (name: string): void => {
    if (done.has(name) || home.get(name) !== place) return;
    done.add(name);
    const decl = named.get(name)!;
    for (const u of decl.uses) visit(u);
    out.push(decl);
  };
  for (const name of [...place.decls].sort()) visit(name);
  return out;
}

/** Where the modules go and what their banners say. */
interface Writing {
  readonly layout: ValidatorLayout;
  readonly stamp: Stamp;
}

/** The text of a module: banner, imports (runtime, then chunks by file), declarations, exports. */
function moduleText(
  place: Place,
  home: ReadonlyMap<string, Place>,
  named: ReadonlyMap<string, Named>,
  exported: ReadonlySet<string>,
  { layout, stamp }: Writing,
): string {
  const from = place.file ?? `${layout.chunks}/x.js`;
  const decls = ordered(place, home, named);
  const runtime = [...new Set(decls.flatMap((d) => d.runtime))].sort();
  const imports = new Map<string, Set<string>>();
  const needed = [...decls.flatMap((d) => d.uses), ...(place.entry?.exports.values() ?? [])];
  for (const u of needed) {
    const other = home.get(u)!;
    if (other === place) continue;
    if (other.file === undefined) throw new Error(`generate: chunks met an import cycle through ${u}; update src/generate/chunks.ts`);
    const rel = path.posix.relative(path.posix.dirname(from), other.file);
    const spec = rel.startsWith('.') ? rel : `./${rel}`;
    imports.set(spec, (imports.get(spec) ?? new Set()).add(u));
  }
  const lines = [banner(stamp, place.versions, '//').trimEnd()];
  const runtimeModule = layout.runtime(from);
  if (runtime.length > 0) lines.push(`import { ${runtime.join(', ')} } from "${runtimeModule}";`);
  for (const [spec, names] of [...imports].sort(([a], [b]) => (a < b ? -1 : 1)))
    lines.push(`import { ${[...names].sort().join(', ')} } from "${spec}";`);
  lines.push(...decls.map((d) => d.code));
  const own = decls.map((d) => d.name).filter((n) => exported.has(n));
  if (own.length > 0) lines.push(`export { ${own.join(', ')} };`);
  if (place.entry !== undefined) {
    const names = [...place.entry.exports].map(([as, name]) => `${name} as ${as}`);
    lines.push(`export { ${names.join(', ')} };`);
    if (place.entry.listing) lines.push(`export { ListingStopped, LISTING_LIMIT as listingLimit } from "${runtimeModule}";`);
  }
  return `${lines.join('\n')}\n`;
}

/** The modules in an order where each comes after the modules it imports (whose file names its text holds). */
function importOrder(places: readonly Place[], home: ReadonlyMap<string, Place>, named: ReadonlyMap<string, Named>): Place[] {
  const out: Place[] = [];
  const done = new Set<Place>();
  const visit = (p: Place): void => {
    if (done.has(p)) return;
    done.add(p);
    for (const d of [...p.decls.flatMap((n) => named.get(n)!.uses), ...(p.entry?.exports.values() ?? [])]) visit(home.get(d)!);
    out.push(p);
  };
  for (const p of places) visit(p);
  return out;
}

/**
 * A module serves one set of releases: what a patch fallback of one release reaches in a module of
 * the tasks that serves only others moves to a chunk of its own serving both (one per module it
 * leaves), so that a bundle of one release never holds another's code.
 */
function shareAcrossReleases(
  chunks: Chunk[],
  entries: readonly EntryModule[],
  named: ReadonlyMap<string, Named>,
  patches: readonly number[],
): void {
  const home = new Map<string, Chunk>();
  for (const c of chunks) for (const d of c.decls) home.set(d, c);
  const moved = new Map<Chunk, Chunk>();
  for (const [name, users] of usersOf(entries, named, patches, new Set())) {
    const from = home.get(name);
    if (from === undefined) continue;
    const versions = new Set([...users].map((u) => entries[u]!.version));
    const missing = [...versions].filter((v) => !from.releases.split(',').includes(v));
    if (missing.length === 0) continue;
    let to = moved.get(from);
    if (to === undefined) {
      const releases = [...new Set([...from.releases.split(','), ...missing])].sort().join(',');
      to = { decls: [], users: new Set(from.users), bytes: 0, releases };
      moved.set(from, to);
      chunks.push(to);
    }
    from.decls.splice(from.decls.indexOf(name), 1);
    from.bytes -= named.get(name)!.code.length;
    to.decls.push(name);
    to.bytes += named.get(name)!.code.length;
  }
  // A chunk left empty is no module.
  for (let i = chunks.length - 1; i >= 0; i--) if (chunks[i]!.decls.length === 0 && chunks[i]!.entry === undefined) chunks.splice(i, 1);
}

/** The modules of the entries `which`: each entry's own, then the chunks they share, merged (declarations `homed` left out). */
function layout(
  entries: readonly EntryModule[],
  named: ReadonlyMap<string, Named>,
  moduleCost: number,
  which: readonly number[],
  homed: ReadonlySet<string>,
): Chunk[] {
  // Each entry's module starts with what only it reaches.
  const first = chunksByUsers(entries, named, which, homed);
  const own = new Map(
    which.map((e): [number, Chunk] => [e, { decls: [], users: new Set([e]), bytes: 0, releases: entries[e]!.version, entry: e }]),
  );
  for (const c of first.filter((c) => c.users.size === 1)) {
    const module = own.get([...c.users][0]!)!;
    module.decls.push(...c.decls);
    module.bytes += c.bytes;
  }
  return merge([...own.values(), ...first.filter((c) => c.users.size > 1)], { named, entries }, moduleCost);
}

/**
 * The validator modules of every release, each declaration written once: the entry modules at
 * their paths, the chunks they share under `chunks/<hash of the text>.js`.
 *
 * @param entries Every entry module of every release (both variants).
 * @param named Every declaration of every release's Ajv modules, by content name.
 * @param writing Where the chunks go, how modules reach the runtime, and their banners' stamp.
 * @param moduleCost What loading one more module costs, in bytes (MODULE_COST; the weight measurements try others).
 * @returns Path in the output folder → text.
 * @throws Error when an entry exports a name no module declares.
 * @example
 * validatorFiles(entries, named, { layout: BUNDLED_VALIDATORS, stamp }).get('v3_1/validators/get_products.js');
 */
export function validatorFiles(
  entries: readonly EntryModule[],
  named: ReadonlyMap<string, Named>,
  writing: Writing,
  moduleCost = MODULE_COST,
): Map<string, string> {
  // The tasks' modules are laid out as if there were no patch fallback; the fallback's modules
  // then hold what they alone reach, and import the rest from the tasks' modules.
  const all = entries.map((_, e) => e);
  const tasks = layout(
    entries,
    named,
    moduleCost,
    all.filter((e) => !isPatchEntry(entries[e]!)),
    new Set(),
  );
  shareAcrossReleases(
    tasks,
    entries,
    named,
    all.filter((e) => isPatchEntry(entries[e]!)),
  );
  const homed = new Set(tasks.flatMap((c) => c.decls));
  const merged = [
    ...tasks,
    ...layout(
      entries,
      named,
      moduleCost,
      all.filter((e) => isPatchEntry(entries[e]!)),
      homed,
    ),
  ];
  const places = merged.map(
    (c): Place =>
      c.entry === undefined
        ? { decls: c.decls, versions: c.releases.split(',') }
        : { decls: c.decls, file: entries[c.entry]!.file, entry: entries[c.entry]!, versions: [entries[c.entry]!.version] },
  );
  const home = new Map<string, Place>();
  for (const p of places) for (const d of p.decls) home.set(d, p);
  // A declaration is exported when a module other than its own names it.
  const exported = new Set<string>();
  for (const p of places) {
    const needed = [...p.decls.flatMap((d) => named.get(d)!.uses), ...(p.entry?.exports.values() ?? [])];
    for (const u of needed) if (home.get(u) !== p) exported.add(u);
  }
  const files = new Map<string, string>();
  for (const p of importOrder(places, home, named)) {
    const text = moduleText(p, home, named, exported, writing);
    p.file ??= `${writing.layout.chunks}/${createHash('sha256').update(text).digest('hex').slice(0, 12)}.js`;
    files.set(p.file, text);
  }
  return files;
}

/**
 * The path of an entry module in the output folder.
 *
 * @param layout Where the release's entries go.
 * @param version The release.
 * @param entry The entry's name (a task).
 * @param listing True for the listing variant.
 * @returns e.g. `v3_1/validators/get_products.errors.js`.
 * @example
 * entryFile(BUNDLED_VALIDATORS, '3.1.19', 'get_products', false); // 'v3_1/validators/get_products.js'
 */
export function entryFile(layout: ValidatorLayout, version: string, entry: string, listing: boolean): string {
  return `${layout.entries(version)}/${entry}${listing ? '.errors' : ''}.js`;
}
