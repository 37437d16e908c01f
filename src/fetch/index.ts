/**
 * adcp-decode/fetch: the Node-only parts. A fetch that bounds what a seller agent may send
 * (bytes, time, SSE events across resumptions) before decode() sees it, for the MCP and A2A SDKs.
 */

export { type BoundedRequestInit, DEFAULT_MAX_BYTES, DEFAULT_TIMEOUT_MS, FETCH_BOUNDS, type FetchBounds } from '../bounds/fetch-bounds.js';
export {
  type BoundedFetch,
  type BoundedFetchOptions,
  type BoundsViolation,
  boundedFetch,
  findBoundsError,
  withFetchBounds,
} from './bounded-fetch.js';
