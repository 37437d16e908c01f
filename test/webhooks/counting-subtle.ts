import type { WebhookCrypto } from '../../src/webhooks/index.js';

/** WebCrypto with a count of every call, to prove what did (not) run. */
export function countingSubtle(): { subtle: WebhookCrypto; calls: Record<string, number> } {
  const calls: Record<string, number> = { digest: 0, verify: 0, importKey: 0, sign: 0 };
  const s = crypto.subtle;
  const subtle: WebhookCrypto = {
    digest: (...a: Parameters<typeof s.digest>) => (calls.digest!++, s.digest(...a)),
    verify: (...a: Parameters<typeof s.verify>) => (calls.verify!++, s.verify(...a)),
    importKey: ((...a: Parameters<typeof s.importKey>) => (calls.importKey!++, s.importKey(...a))) as typeof s.importKey,
    sign: (...a: Parameters<typeof s.sign>) => (calls.sign!++, s.sign(...a)),
  };
  return { subtle, calls };
}
