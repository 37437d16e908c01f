/**
 * The command line's usage error: what the user typed cannot run (an unknown option, a missing
 * argument, an SDK that is not installed). Printed as one line on stderr, exit status 2.
 */

/** A usage error: one line, exit 2. */
export class UsageError extends Error {}
