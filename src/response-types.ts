/**
 * Helpers the generated task → response map is written with. The AdCP async-response schemas do
 * not declare `status`; decode() picks the schema by `status`, so the types add it back as the
 * discriminant that narrows a decoded value.
 */

/** The `status` values that select an async-response schema instead of the task's response. */
export type AsyncStatus = 'working' | 'submitted' | 'input-required';

type StatusOf<T> = T extends { status: infer S } ? S : T extends { status?: infer S } ? S : unknown;

/** The sync variant's `status`: the schema's values less the task's async ones, or any string when the schema leaves it open. */
type SyncStatus<T, A extends AsyncStatus> = unknown extends StatusOf<T> ? string : Exclude<StatusOf<T>, A>;

/**
 * The task's final response, as sent. `status` is optional: when a seller omits it, decode()
 * judges the payload as `completed` (the MCP guide's receiver rule) but returns it unchanged,
 * so `status` may be absent. It is never one of the task's async statuses `A`: those select an
 * {@link AsyncVariant}.
 * (A key-remapping mapped type, not `Omit`, so the schemas' index signatures keep the known keys.)
 */
export type SyncVariant<T, A extends AsyncStatus = never> = { [K in keyof T as K extends 'status' ? never : K]: T[K] } & {
  status?: SyncStatus<T, A>;
};

/** An async progress payload, selected because its `status` is `S`. */
export type AsyncVariant<T, S extends AsyncStatus> = T & { status: S };
