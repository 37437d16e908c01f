/**
 * adcp-decode: turn what an AdCP seller agent sends back (over MCP or A2A) into typed,
 * schema-checked data, or a precise, typed error, before the buyer trusts it.
 *
 * This is the Node entry: the portable core (portable.ts), validators loaded on first use, and
 * the bounded fetch (also at `adcp-decode/fetch`).
 */
import './node-validators.js';

export * from './portable.js';
export * from './fetch/index.js';
