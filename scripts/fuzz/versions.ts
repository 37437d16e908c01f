/**
 * The bundled versions the fuzzer draws from, derived from the generated tables so a release bump
 * needs no edit here; oldest first, the order the recorded cases were drawn in.
 */
import { releaseOf, type Version, versions } from '../../src/schema/versions.js';

/** The bundled versions, oldest first. */
export const OLDEST_FIRST: readonly Version[] = [...versions].reverse();

/** Their releases (`3.0`, `3.1`), oldest first. */
export const RELEASES: readonly string[] = OLDEST_FIRST.map(releaseOf);
