/**
 * The bundled releases as release objects, read from their generated tables, so that the run time
 * reads a bundled release and a generated one through the same interface (release.ts).
 */
import {
  protocolsByVersion,
  taskStatusPollByVersion,
  taskTypesByVersion,
  webhookEnvelopeByVersion,
  webhookRequiredByVersion,
} from '../generated/envelope.js';
import { tablesByVersion, versionFolders } from '../generated/index.js';
import { patchJudgesByVersion } from '../generated/patches.js';
import { requestTablesByVersion, toolFactsByVersion } from '../generated/requests.js';
import { type Version, versions } from '../generated/versions.js';
import { type AdcpRelease, pinOf, RELEASE_FORMAT } from './release.js';

/** 3.0 and 3.1 judge a reporting webhook's result by get_media_buy_delivery's response (webhooks.mdx; 3.2 says so in its manifest). */
const RESULTS: Readonly<Record<string, string>> = { media_buy_delivery: 'get_media_buy_delivery' };

function bundled(version: Version): AdcpRelease {
  return Object.freeze({
    format: RELEASE_FORMAT,
    version,
    release: pinOf(version),
    generator: 'adcp-decode (bundled)',
    sourceSha256: '',
    tables: tablesByVersion[version],
    envelope: {
      taskTypes: taskTypesByVersion[version],
      protocols: protocolsByVersion[version],
      webhookRequired: webhookRequiredByVersion[version],
      webhookEnvelope: webhookEnvelopeByVersion[version],
      taskStatusPoll: taskStatusPollByVersion[version],
    },
    requests: requestTablesByVersion[version],
    tools: toolFactsByVersion[version],
    results: RESULTS,
    patches: patchJudgesByVersion[version],
    files: { package: versionFolders[version] },
  });
}

/** The bundled releases, default first. */
export const BUNDLED_RELEASES: readonly AdcpRelease[] = versions.map(bundled);
