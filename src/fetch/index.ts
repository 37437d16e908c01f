/**
 * adcp-decode/fetch: the Node-only parts. A fetch that bounds what a seller agent may send
 * (bytes, time, SSE events across resumptions) before decode() sees it, for the MCP and A2A SDKs.
 */
export { boundedFetch, withFetchBounds, findBoundsError, FETCH_BOUNDS, DEFAULT_MAX_BYTES, DEFAULT_TIMEOUT_MS } from './bounded-fetch.js';
export type { BoundedFetch, BoundedFetchOptions, BoundedRequestInit, BoundsViolation, FetchBounds } from './bounded-fetch.js';
