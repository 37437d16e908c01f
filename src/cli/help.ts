/**
 * The command line's name and its `--help` text, in a file of their own so that the CLI test
 * compares what it prints with this text, not with a copy.
 */
import { DEFAULT_BOUNDS } from '../bounds/bounds.js';
import { defaultVersion, releaseOf, versions } from '../schema/versions.js';

/** The command, as the help and the error lines name it. */
export const NAME = 'adcp-decode';

/**
 * The bundled releases, newest first as `versions` lists them.
 *
 * @returns E.g. `['3.1', '3.0']`.
 * @example
 * releases().join(', '); // '3.1, 3.0'
 */
export function releases(): string[] {
  return [...new Set(versions.map(releaseOf))];
}

/** What `--help` prints. */
export const HELP = `Usage:
  ${NAME} <task> [file|-] [options]   decode a saved MCP result, A2A task or bare payload
  ${NAME} tasks [--adcp-version V]    list the tasks and their response schemas
  ${NAME} generate <source> --out <dir>   write a release module from an AdCP release's schemas (generate --help)

Reads the file, or stdin when the file is - or omitted.

Options:
  --json              print machine-readable JSON (the decoded data, or the error) on stdout
  --adcp-version V    auto (default: the payload's adcp_version, else ${defaultVersion}),
                      a bundled version (${versions.join(', ')}) or release (${releases().join(', ')})
  --max-bytes N       largest payload text in UTF-8 bytes (default ${DEFAULT_BOUNDS.maxBytes}); the input
                      itself may be at most 2 × N + 1 MiB; reading stops above that
  --transport T       auto (default), mcp, a2a or payload; auto reads anything that is not an
                      MCP result, JSON-RPC message or A2A task/event as a bare payload
  -h, --help          show this help
  --version           show the adcp-decode version

Exit status: 0 decoded, 1 did not decode, 2 usage error.

Examples:
  ${NAME} get_products examples/get-products.mcp.json
  curl -s ... | ${NAME} create_media_buy - --json`;
