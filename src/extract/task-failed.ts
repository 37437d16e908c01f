/**
 * TaskFailedError, the seller's own failure: beside the seller-error reading (seller-errors.ts)
 * whose typed result it carries, above errors/ because that result is typed by the bundled versions.
 */
import { DecodeError, type AdcpError, type DecodeErrorOptions, type RecoveryClassification } from '../errors/errors.js';
import type { KnownSellerError } from './seller-errors.js';

/** `TASK_FAILED`: the seller answered with an AdCP error. */
export class TaskFailedError extends DecodeError {
  override readonly name = 'TaskFailedError';
  override readonly code: 'TASK_FAILED' = 'TASK_FAILED';
  /**
   * The `adcp_error` object as the seller sent it; `undefined` when the seller signalled failure
   * (`isError`, a JSON-RPC error, a failed A2A task) without a usable `adcp_error`.
   */
  readonly adcpError: AdcpError | undefined;
  /** How to react, per the version's error-code table and policy (or the task state's, without an adcp_error). */
  readonly recovery: RecoveryClassification;
  /**
   * The seller's error when its code is one the spec gives a meaning or data for
   * (`VERSION_UNSUPPORTED`, `IDEMPOTENCY_CONFLICT`, ...), typed: narrow on `known.code`.
   * `undefined` for any other code, or without an `adcp_error`.
   */
  readonly known: KnownSellerError | undefined;
  /**
   * What the seller said in words (the MCP `isError` text, the A2A status or artifact text, the
   * JSON-RPC error message), shown with `shownText`: escaped, at most 1,000 characters.
   */
  readonly sellerText: string | undefined;

  constructor(
    message: string,
    data: {
      adcpError: AdcpError | undefined;
      recovery: RecoveryClassification;
      known?: KnownSellerError | undefined;
      sellerText?: string | undefined;
    },
    options: DecodeErrorOptions = {},
  ) {
    super('TASK_FAILED', message, options);
    this.adcpError = data.adcpError;
    this.recovery = data.recovery;
    this.known = data.known;
    this.sellerText = data.sellerText;
  }
}
