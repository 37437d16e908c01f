/**
 * A call's refusal as its events carry it (src/events/): the error's code and message, whose fault
 * it is, and what its kind adds: a TransportError's blame, status and signature code, a
 * TaskFailedError's recovery and seller code, a signer's refusal's code and blame.
 */

import { type DecodeError, type DecodeErrorCode, TaskFailedError } from '../errors/errors.js';
import { shownText } from '../errors/format.js';
import type { CallBlame, EventRefusal } from '../events/events.js';
import { refusalOf } from '../events/tell.js';
import { own } from '../json/own.js';
import { TransportError } from './transport-error.js';

/**
 * Whose fault each code is when the error itself does not say: what the seller sent is the
 * seller's; the request, the options and a release not bundled are the caller's (never the
 * seller's); a deadline is the network's; a failure the seller reported is no one's fault.
 */
const BLAME: Readonly<Record<DecodeErrorCode, CallBlame>> = {
  UNKNOWN_TASK: 'request',
  UNSUPPORTED_VERSION: 'configuration',
  // A release the buyer has not loaded (generated): the buyer's setup, with the command that generates it.
  RELEASE_NOT_LOADED: 'configuration',
  NO_PAYLOAD: 'seller',
  INVALID_JSON: 'seller',
  UNSAFE_JSON: 'seller',
  DUPLICATE_KEY: 'seller',
  TOO_LARGE: 'seller',
  TOO_DEEP: 'seller',
  TOO_MANY_VALUES: 'seller',
  MALFORMED_ENVELOPE: 'seller',
  WRAPPER_DETECTED: 'seller',
  SCHEMA_MISMATCH: 'seller',
  TASK_FAILED: 'none',
  TIMEOUT: 'network',
  INVALID_OPTION: 'configuration',
  INVALID_INPUT: 'request',
  INTERNAL: 'internal',
  UNSUPPORTED_ENCODING: 'seller',
  WEBHOOK_REJECTED: 'internal',
  INVALID_REQUEST: 'request',
  CONTEXT_MISMATCH: 'seller',
  VERSION_MISMATCH: 'seller',
  // decoderFor found no release in common: neither side's fault.
  NO_COMMON_VERSION: 'none',
  UNSIGNABLE_REQUEST: 'request',
  TASK_MISMATCH: 'seller',
  TRANSPORT_FAILED: 'network',
};

/**
 * The refusal an event carries for a call's (or a poll's) error.
 *
 * @param error - How the attempt, the poll or the call ended.
 * @returns Its code, message, blame and what its kind adds.
 * @throws Never.
 * @example
 * callRefusal(new TransportError('…', { refusal: { status: 503 } })); // { code: 'TRANSPORT_FAILED', blame: 'seller', httpStatus: 503, ... }
 */
export function callRefusal(error: DecodeError): EventRefusal<CallBlame> {
  if (error instanceof TransportError)
    return refusalOf(error, {
      blame: error.blame,
      detail: error.signatureError,
      recovery: error.recovery.recovery,
      retryAfterSeconds: error.recovery.retryAfterSeconds,
      httpStatus: error.status,
      sellerText: error.sellerText,
    });
  if (error instanceof TaskFailedError) {
    const code = error.adcpError?.code;
    return refusalOf(error, {
      blame: 'none',
      detail: typeof code === 'string' ? shownText(code, 64) : undefined,
      recovery: error.recovery.recovery,
      retryAfterSeconds: error.known?.code === 'IDEMPOTENCY_IN_FLIGHT' ? error.known.retryAfterSeconds : error.recovery.retryAfterSeconds,
      sellerText: error.sellerText,
    });
  }
  if (error.code === 'UNSIGNABLE_REQUEST') {
    // The signer's refusal (signatures/sign) names its code and blame: the request, or the configuration.
    const requestCode = own(error, 'requestCode');
    return refusalOf(error, {
      blame: own(error, 'blame') === 'configuration' ? 'configuration' : 'request',
      detail: typeof requestCode === 'string' ? requestCode : undefined,
    });
  }
  return refusalOf(error, { blame: BLAME[error.code] });
}
