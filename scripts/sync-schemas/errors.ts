/**
 * The errors sync-schemas throws, and the messages shared by the code that reads the source: one
 * line each, a stable `code`, the file to blame when there is one.
 */

/** How an offline machine gets the files; every source and network error ends with it. */
export const OFFLINE_HINT = 'for offline machines: ADCP_SCHEMAS_SOURCE=../shared/adcp';

/** The stable codes of {@link SyncSchemasError}. */
export type SyncSchemasErrorCode =
  /** Bad arguments or options. */
  | 'USAGE'
  /** The source is not usable (plain http to a remote host, unknown scheme, missing directory). */
  | 'BAD_SOURCE'
  /** The lock file is missing or malformed. */
  | 'BAD_LOCK'
  /** A file's sha256 or size differs from the lock. */
  | 'MISMATCH'
  /** A file the lock lists is not in the source (404, ENOENT). */
  | 'MISSING'
  /** A file is larger than the lock allows or than the per-file cap. */
  | 'TOO_LARGE'
  /** A request did not finish within the timeout (after retries). */
  | 'TIMEOUT'
  /** An HTTP status other than 200 / 404 (after retries, for 5xx and 429). */
  | 'HTTP'
  /** A network or file-system error (after retries, for network errors). */
  | 'IO';

/**
 * Every failure of sync-schemas: a one-line message, a stable `code`, and `file` when one file is
 * to blame; the CLI prints `sync-schemas: <message>` and exits 1.
 *
 * @example
 * throw new SyncSchemasError('MISSING', 'LICENSE is listed in the lock but missing', { file: 'LICENSE' });
 */
export class SyncSchemasError extends Error {
  override readonly name = 'SyncSchemasError';
  readonly code: SyncSchemasErrorCode;
  /** The lock-relative path of the file to blame, when there is one. */
  readonly file: string | undefined;

  /**
   * @param code - The stable code.
   * @param message - One line.
   * @param options - The file to blame and the cause, when there are.
   */
  constructor(code: SyncSchemasErrorCode, message: string, options: { file?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.file = options.file;
  }
}

/** What the messages about one source file need to know. */
export interface MessageContext {
  readonly source: { readonly kind: 'dir' | 'url'; readonly display: string };
  /** The lock as shown to the user (relative to the current directory when inside it). */
  readonly lockShown: string;
  /** The command that rewrites this lock. */
  readonly updateCommand: string;
}

/** How to fix a source that differs from the lock: upgrade on purpose, or use a trusted copy. */
function fixHint(ctx: MessageContext): string {
  const upgrade =
    ctx.source.kind === 'dir'
      ? `run \`${ctx.updateCommand}\``
      : `run \`${ctx.updateCommand}\` with ADCP_SCHEMAS_SOURCE set to a directory copy of the new release`;
  return `the source differs from ${ctx.lockShown}: if the upgrade is intended, ${upgrade}; otherwise point ADCP_SCHEMAS_SOURCE at a trusted copy (${OFFLINE_HINT})`;
}

/**
 * The error for a file whose sha256 or size differs from the lock.
 *
 * @param ctx - The source and lock, for the message.
 * @param rel - The lock-relative path.
 * @param want - What the lock pins.
 * @param got - What arrived.
 * @returns A `MISMATCH` error naming the file.
 * @throws Never.
 * @example
 * throw mismatch(ctx, 'LICENSE', lock.files.get('LICENSE')!, { sha256: sha256(data), bytes: data.length });
 */
export function mismatch(
  ctx: MessageContext,
  rel: string,
  want: { readonly sha256: string; readonly bytes: number },
  got: { readonly sha256: string; readonly bytes: number },
): SyncSchemasError {
  return new SyncSchemasError(
    'MISMATCH',
    `${rel} from ${ctx.source.display} does not match ${ctx.lockShown}: expected sha256 ${want.sha256} (${want.bytes} bytes), got sha256 ${got.sha256} (${got.bytes} bytes); nothing was written for it; ${fixHint(ctx)}`,
    { file: rel },
  );
}

/**
 * The error for a file larger than the lock allows.
 *
 * @param ctx - The source and lock, for the message.
 * @param rel - The lock-relative path.
 * @param limit - The bytes the lock allows.
 * @param detail - What showed it was larger (a Content-Length, the bytes received, the file's size).
 * @returns A `TOO_LARGE` error naming the file.
 * @throws Never.
 * @example
 * throw tooLarge(ctx, rel, limit, `Content-Length ${length}`);
 */
export function tooLarge(ctx: MessageContext, rel: string, limit: number, detail: string): SyncSchemasError {
  return new SyncSchemasError(
    'TOO_LARGE',
    `${rel} from ${ctx.source.display} is larger than the ${limit} bytes ${ctx.lockShown} expects (${detail}); aborted, nothing was written for it; ${fixHint(ctx)}`,
    { file: rel },
  );
}

/**
 * The error for a file the lock lists but the source does not have.
 *
 * @param ctx - The source and lock, for the message.
 * @param rel - The lock-relative path.
 * @param detail - How it was found missing (an HTTP status, ENOENT).
 * @returns A `MISSING` error naming the file.
 * @throws Never.
 * @example
 * throw missing(ctx, rel, `HTTP 404 from ${url}`);
 */
export function missing(ctx: MessageContext, rel: string, detail: string): SyncSchemasError {
  return new SyncSchemasError(
    'MISSING',
    `${rel} is listed in ${ctx.lockShown} but missing from the source ${ctx.source.display} (${detail}); ${fixHint(ctx)}`,
    { file: rel },
  );
}
