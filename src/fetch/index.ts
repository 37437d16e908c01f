/**
 * adcp-decode/fetch: the Node-only parts. A fetch that bounds what a seller agent may send
 * (bytes, time, SSE events across resumptions) before decode() sees it, for the MCP and A2A SDKs.
 */
export { boundedFetch, withFetchBounds, findBoundsError } from './bounded-fetch.js';
export type { BoundedFetch, BoundedFetchOptions, BoundsViolation } from './bounded-fetch.js';
export { FETCH_BOUNDS, DEFAULT_MAX_BYTES, DEFAULT_TIMEOUT_MS } from '../bounds/fetch-bounds.js';
export type { BoundedRequestInit, FetchBounds } from '../bounds/fetch-bounds.js';
