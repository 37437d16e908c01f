/**
 * The new-keyid admission pressure both replay stores track (security.mdx, "Webhook replay dedup
 * sizing": MUST track): its options, and the in-memory tracker, which counts its bytes so that the
 * memory store's byte bound covers it too.
 */
import { positiveInteger } from '../../errors/option-rules.js';
import { mapEntryBytes, ownCopy, QUEUED_NUMBER_BYTES } from './memory-bytes.js';

/** One admission of a previously-unseen keyid, passed to `onNewKeyid`. */
export interface NewKeyidAdmission {
  /** The keyid whose first entry was admitted. */
  readonly keyid: string;
  /** New-keyid admissions in the rolling window, this one included. */
  readonly admissionsInWindow: number;
  /** The rolling window, in milliseconds. */
  readonly windowMs: number;
}

/** The new-keyid tracking options both stores share. */
export interface AdmissionTrackingOptions {
  /** The rolling window of `newKeyidAdmissions`. Default 5 minutes (the spec's example). */
  readonly admissionWindowMs?: number | undefined;
  /**
   * How long a keyid stays "seen" after its last admission. Default 30 days: a seller that
   * sends one webhook a day is not new each morning.
   */
  readonly keyidMemoryMs?: number | undefined;
  /**
   * Most keyids remembered; past it the least recently admitted is forgotten, so it counts as new
   * again (the error errs toward an alarm, never toward a replay). Default 100,000.
   */
  readonly maxKnownKeyids?: number | undefined;
  /**
   * Called on each admission of a previously-unseen keyid, to feed the operator's alarm (the
   * spec's SHOULD-alert thresholds are the operator's to tune, so none is built in). It must not
   * throw: a throw is reported as the store failing (`webhook_replay_store_unavailable`).
   */
  readonly onNewKeyid?: ((admission: NewKeyidAdmission) => void) | undefined;
}

/** The new-keyid tracking options by name, in both stores' lists (a type test holds it to `keyof AdmissionTrackingOptions`). */
export const ADMISSION_TRACKING_OPTION_KEYS = [
  'admissionWindowMs',
  'keyidMemoryMs',
  'maxKnownKeyids',
  'onNewKeyid',
] as const satisfies readonly (keyof AdmissionTrackingOptions)[];

/** Resolved new-keyid tracking settings. */
export interface AdmissionTracking {
  readonly windowMs: number;
  readonly memoryMs: number;
  readonly maxKnown: number;
}

/**
 * Checks and fills in the new-keyid tracking options (shared by the in-memory and Redis stores).
 *
 * @param options - The caller's options.
 * @param who - The factory's name, for the error message.
 * @returns The settings with defaults.
 * @throws {DecodeError} `INVALID_OPTION` for a value that is not a positive safe integer.
 * @example
 * const tracking = admissionTracking(options, 'createMemoryReplayStore');
 */
export function admissionTracking(options: AdmissionTrackingOptions, who: string): AdmissionTracking {
  return {
    windowMs: positiveInteger(who, 'admissionWindowMs', options.admissionWindowMs, 5 * 60_000),
    memoryMs: positiveInteger(who, 'keyidMemoryMs', options.keyidMemoryMs, 30 * 24 * 3_600_000),
    maxKnown: positiveInteger(who, 'maxKnownKeyids', options.maxKnownKeyids, 100_000),
  };
}

/** The in-memory tracker of new-keyid admissions. */
export interface AdmissionTracker {
  /** Records a claimed entry of `keyid` at `t`, calling `onNewKeyid` when the keyid is new. */
  admit(keyid: string, t: number): void;
  /** New-keyid admissions within the window ending at `t`. */
  admissionsSince(t: number): number;
  /** The bytes `admit(keyid, t)` would add: the keyid remembered (when new), one admission queued (when it is one). */
  admitCost(keyid: string, t: number): number;
  /** Forgets the least recently admitted keyid to make room; false when none is left. */
  forgetOldest(): boolean;
  /** The bytes no forgetting frees: the queued admissions, and `keyid` remembered again as new. */
  floorBytes(keyid: string): number;
  /** The bytes the tracker counts as held. */
  bytes(): number;
}

/**
 * A tracker of new-keyid admissions that counts the bytes it holds.
 *
 * @param tracking - The resolved settings.
 * @param onNewKeyid - The operator's hook.
 * @returns The tracker.
 * @example
 * const tracker = createAdmissionTracker(admissionTracking({}, 'store'), undefined);
 */
export function createAdmissionTracker(tracking: AdmissionTracking, onNewKeyid: AdmissionTrackingOptions['onNewKeyid']): AdmissionTracker {
  // Keyids by last admission, least recent first; admissions of new keyids, oldest first, in a
  // queue read from `head` and compacted now and then (Array#shift is linear for big arrays).
  const known = new Map<string, number>();
  let admissions: number[] = [];
  let head = 0;
  let held = 0;
  const drop = (): void => {
    head++;
    held -= QUEUED_NUMBER_BYTES;
    if (head > 1024 && head * 2 > admissions.length) {
      admissions = admissions.slice(head);
      head = 0;
    }
  };
  const forget = (keyid: string): void => {
    known.delete(keyid);
    held -= mapEntryBytes(keyid);
  };
  const admissionsSince = (t: number): number => {
    while (head < admissions.length && (admissions[head] as number) <= t - tracking.windowMs) drop();
    return admissions.length - head;
  };
  return {
    admit(keyid, t) {
      const last = known.get(keyid);
      if (last !== undefined) forget(keyid);
      known.set(ownCopy(keyid), t);
      held += mapEntryBytes(keyid);
      for (const [oldest, at] of known) {
        if (known.size <= tracking.maxKnown && at > t - tracking.memoryMs) break;
        forget(oldest);
      }
      if (last !== undefined && last > t - tracking.memoryMs) return;
      admissions.push(t);
      held += QUEUED_NUMBER_BYTES;
      if (admissions.length - head > tracking.maxKnown) drop();
      onNewKeyid?.({ keyid, admissionsInWindow: admissionsSince(t), windowMs: tracking.windowMs });
    },
    admissionsSince,
    admitCost(keyid, t) {
      const last = known.get(keyid);
      if (last === undefined) return mapEntryBytes(keyid) + QUEUED_NUMBER_BYTES;
      return last > t - tracking.memoryMs ? 0 : QUEUED_NUMBER_BYTES;
    },
    forgetOldest() {
      for (const oldest of known.keys()) {
        forget(oldest);
        return true;
      }
      return false;
    },
    floorBytes: (keyid) => (admissions.length - head + 1) * QUEUED_NUMBER_BYTES + mapEntryBytes(keyid),
    bytes: () => held,
  };
}
