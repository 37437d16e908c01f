/**
 * The packages only the generator needs: optional peer dependencies of adcp-decode (package.json
 * `peerDependencies`, `peerDependenciesMeta`), so that an install that only decodes never fetches
 * them and decode() never loads them. The generate command looks for them before it loads any
 * code that imports them, and names the one command that installs what is missing.
 */
import { createRequire } from 'node:module';

/** A peer the generator imports, and the versions it is built and tested against. */
interface Peer {
  readonly name: string;
  /** What package.json's peerDependencies says, and the install command asks for. */
  readonly range: string;
  /** The majors that range allows, and the lowest version of the lowest. */
  readonly majors: readonly number[];
  readonly minimum: string;
  /** Whether what it does shows in the generated code (a banner names those). */
  readonly writes: boolean;
}

/** The generator's peers: the validators' compiler and its formats, the types' writer, the tarball reader. */
export const GENERATOR_PEERS: readonly Peer[] = [
  { name: 'ajv', range: '^8.20.0', majors: [8], minimum: '8.20.0', writes: true },
  { name: 'ajv-formats', range: '^3.0.1', majors: [3], minimum: '3.0.1', writes: true },
  { name: 'json-schema-to-typescript', range: '^16.0.0', majors: [16], minimum: '16.0.0', writes: true },
  { name: 'tar', range: '^7.5.0 || ^8.0.0', majors: [7, 8], minimum: '7.5.0', writes: false },
];

/** Whether version `a` (x.y.z) is below `b`. */
function below(a: string, b: string): boolean {
  const [x, y] = [a.split('.').map((n) => Number.parseInt(n, 10)), b.split('.').map((n) => Number.parseInt(n, 10))];
  for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) < (y[i] ?? 0);
  return false;
}

/** What was found of the peers, from where the generator runs. */
export interface PeerCheck {
  /** `name version` of each peer found, e.g. `ajv 8.20.0`. */
  readonly found: readonly string[];
  /** Those that write the code, as a banner names them: `ajv 8.20.0, ajv-formats 3.0.1, json-schema-to-typescript 16.0.0`. */
  readonly tools: string;
  /** One line saying what is missing or too old and the command that installs it; undefined when all are there. */
  readonly problem?: string | undefined;
}

/**
 * Looks for the generator's peers as the generator's own code would resolve them.
 *
 * @param from The URL of a module beside the generator's code (its own URL).
 * @returns What was found, and what to install when something is missing.
 * @throws Never.
 * @example
 * const { problem } = checkPeers(new URL('./command.js', base).href);
 */
export function checkPeers(from: string): PeerCheck {
  const require = createRequire(from);
  const found: string[] = [];
  const tools: string[] = [];
  const missing: string[] = [];
  for (const peer of GENERATOR_PEERS) {
    let version: unknown;
    try {
      version = (require(`${peer.name}/package.json`) as { version?: unknown }).version;
    } catch {
      missing.push(peer.name);
      continue;
    }
    const major = typeof version === 'string' ? Number.parseInt(version, 10) : Number.NaN;
    if (typeof version !== 'string' || !peer.majors.includes(major) || (major === peer.majors[0] && below(version, peer.minimum)))
      missing.push(`${peer.name} ${peer.range} (found ${String(version)})`);
    else {
      found.push(`${peer.name} ${version}`);
      if (peer.writes) tools.push(`${peer.name} ${version}`);
    }
  }
  if (missing.length === 0) return { found, tools: tools.join(', ') };
  const install = GENERATOR_PEERS.map((p) => `${p.name}@"${p.range}"`).join(' ');
  return {
    found,
    tools: tools.join(', '),
    problem: `needs ${missing.join(', ')}: optional peer dependencies that adcp-decode does not install (decoding never loads them); install them beside it: npm install --save-dev ${install}`,
  };
}
