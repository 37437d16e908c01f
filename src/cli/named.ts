/**
 * encode and safeCallTask over a task the user names at run time. Their typed signatures are for
 * tasks known when compiling, typed by that task's request and response; the command line reads a
 * task name and its arguments as text, and encode checks both before anything is sent.
 */
import { type A2aClient, safeCallTask as a2aSafeCallTask } from '../a2a/index.js';
import { safeEncode } from '../encode/encode.js';
import type { EncodedRequest } from '../encode/request.js';
import type { DecodeError } from '../errors/errors.js';
import { type McpClient, safeCallTask as mcpSafeCallTask } from '../mcp/index.js';
import type { Version } from '../schema/versions.js';

/** What safeEncode returns for a task named at run time. */
export type NamedEncoding =
  | { readonly success: true; readonly data: EncodedRequest }
  | { readonly success: false; readonly error: DecodeError };

/** What safeCallTask resolves to for a task named at run time. */
export type NamedCall =
  | {
      readonly success: true;
      readonly data: Readonly<Record<string, unknown>>;
      readonly version: Version;
      readonly request: EncodedRequest;
      readonly standInFor?: string;
    }
  | { readonly success: false; readonly error: DecodeError; readonly request: EncodedRequest | undefined };

/** The options the command line calls with: callTask's bounds; `version` pins the release spoken, else the request's judges. */
interface NamedCallOptions {
  readonly version?: Version;
  readonly maxBytes: number;
  readonly timeoutMs: number;
}

/** safeEncode over a task named at run time (`UNKNOWN_TASK` for a name the version lacks). */
export const encodeNamed = safeEncode as unknown as (task: string, args: unknown, options: { readonly version: Version }) => NamedEncoding;

type SafeCall<C> = {
  (client: C, task: string, args: unknown, options: NamedCallOptions): Promise<NamedCall>;
  (client: C, request: EncodedRequest, options: NamedCallOptions): Promise<NamedCall>;
};

/** safeCallTask over MCP, for a task named at run time. */
export const mcpCallNamed = mcpSafeCallTask as unknown as SafeCall<McpClient>;

/** safeCallTask over A2A, for a task named at run time. */
export const a2aCallNamed = a2aSafeCallTask as unknown as SafeCall<A2aClient>;
