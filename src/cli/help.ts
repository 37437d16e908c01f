/**
 * The command line's name and its `--help` text, in a file of their own so that the CLI test
 * compares what it prints with this text, not with a copy.
 */
import { DEFAULT_BOUNDS } from '../bounds/bounds.js';
import { DEFAULT_TIMEOUT_MS } from '../bounds/fetch-bounds.js';
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
  ${NAME} <task> [file|-] [options]      decode a saved MCP result, A2A task or bare payload
  ${NAME} tasks [--adcp-version V]       list the tasks and their response schemas
  ${NAME} call <url> <task> [args|-]     call a task on a live seller and decode its answer
  ${NAME} probe <url>                    check a live seller: capabilities, negotiation, and
                                         each read-only task it lists, with a minimal request
  ${NAME} generate <source> --out <dir>  write a release module from an AdCP release's schemas
                                         (a folder or <version>.tgz; ${NAME} generate --help)

Reads the file, or stdin when the file is - or omitted (call: no file sends {}).

Options:
  --json              print machine-readable JSON (the decoded data, the error, the report) on stdout
  --adcp-version V    auto (default: the payload's adcp_version, else ${defaultVersion}),
                      a bundled version (${versions.join(', ')}) or release (${releases().join(', ')});
                      call and probe negotiate auto from the seller's get_adcp_capabilities
  --release DIR       a release module adcp-decode generate wrote (repeatable): the command then
                      speaks that release as a bundled one (--adcp-version, auto, negotiation)
  --max-bytes N       largest payload text in UTF-8 bytes (default ${DEFAULT_BOUNDS.maxBytes}); the input
                      itself may be at most 2 × N + 1 MiB; reading stops above that
  --transport T       a saved answer: auto (default), mcp, a2a or payload; auto reads anything
                      that is not an MCP result, JSON-RPC message or A2A task/event as a bare payload.
                      A live seller: auto (default: MCP, else the A2A agent card), mcp or a2a
  --header "N: V"     call and probe: a header sent with every request (repeatable), e.g.
                      "Authorization: Bearer <token>"; never printed
  --timeout-ms N      call and probe: deadline of each request in ms (default ${DEFAULT_TIMEOUT_MS})
  -h, --help          show this help
  --version           show the adcp-decode version

Exit status: 0 decoded (probe: no answer broke the spec), 1 did not decode (the seller broke
the spec, or its task failed), 2 usage error, 3 a live seller gave no answer (an HTTP refusal,
a failed connection), 4 a bound was passed calling it (size, depth, values, time).

Examples:
  ${NAME} get_products examples/get-products.mcp.json
  curl -s ... | ${NAME} create_media_buy - --json
  ${NAME} probe https://seller.example/mcp --header "Authorization: Bearer $TOKEN"`;
