/**
 * adcp-decode/webhooks: verified, decoded AdCP webhooks (the RFC 9421 webhook profile, the legacy
 * HMAC fallback on opt-in, replay stores) and decodeWebhook() for bodies verified elsewhere.
 */
export { decodeWebhook } from './decode-webhook.js';
export type { DecodedWebhook, DecodedWebhookOf, DecodeWebhookOptions, WebhookData, WebhookResultTask } from './decode-webhook.js';
export { detectWebhookFormat, extractWebhookPayload, validateWebhookEnvelope, WEBHOOK_STATUSES, WEBHOOK_TASK_TYPES } from './envelope.js';
export type { WebhookEnvelope, WebhookFormat, WebhookStatus, WebhookTaskType } from './envelope.js';
export { findDuplicateKeys, sanitizeKeyName } from './duplicate-keys.js';
export type { DuplicateKeys } from './duplicate-keys.js';
export { WebhookError, webhookResponse, WEBHOOK_HTTP_STATUS } from './errors.js';
export type { WebhookErrorCode, WebhookResponseInit } from './errors.js';
