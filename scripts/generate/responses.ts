/**
 * The task → type maps of a version (`responses.ts`): per task, the sync response and its async
 * variants, discriminated by `status`; and the request.
 */

import { TASKS_GET, tasksGetRequest } from './envelopes.js';
import type { Manifest } from './load.js';
import { banner, layoutImport, versionIdent } from './output.js';

/**
 * The `responses.ts` module of a version: what `decode(task, ...)` returns for each task
 * (`Responses`) and what `encode(task, ...)` takes (`Requests`).
 *
 * @param version The AdCP version.
 * @param manifest Its tasks.
 * @param names `$id` → type name.
 * @returns The module's text.
 * @example
 * responsesModule('3.1.19', manifest, names);
 */
export function responsesModule(version: string, manifest: Manifest, names: Map<string, string>): string {
  const ids = new Set<string>();
  // 3.0's poll request (tasks/get) is no task, but encode() builds it: the one request beside the tasks'.
  const pollRequest = tasksGetRequest(version, manifest);
  if (pollRequest !== undefined) ids.add(pollRequest);
  for (const t of manifest.tasks) {
    ids.add(t.request);
    ids.add(t.response);
    for (const id of Object.values(t.async)) ids.add(id);
  }
  const imported = [...new Set([...ids].map((id) => names.get(id)!))].sort();
  const entries = manifest.tasks.map((t) => {
    const asyncStatuses = Object.keys(t.async).map((s) => JSON.stringify(s));
    const variants = [
      `SyncVariant<${[names.get(t.response)!, ...(asyncStatuses.length > 0 ? [asyncStatuses.join(' | ')] : [])].join(', ')}>`,
    ];
    for (const [s, id] of Object.entries(t.async)) variants.push(`AsyncVariant<${names.get(id)!}, ${JSON.stringify(s)}>`);
    return `  ${t.name}: ${variants.join(' | ')};`;
  });
  return `${banner(version)}import type { AsyncVariant, SyncVariant } from '${layoutImport(`${versionIdent(version)}/responses.ts`, 'responseTypes')}';
import type {
${imported.map((n) => `  ${n},`).join('\n')}
} from './types.js';

/**
 * What \`decode(task, ...)\` returns for each AdCP ${version} task: the sync response, or an async
 * variant (\`working\`, \`submitted\`, \`input-required\`) narrowable on \`status\`.
 */
export interface Responses {
${entries.join('\n')}
}

/** What \`encode(task, args)\` takes for each AdCP ${version} task: its request schema's type. */
export interface Requests {
${manifest.tasks.map((t) => `  ${t.name}: ${names.get(t.request)!};`).join('\n')}${pollRequest === undefined ? '' : `\n  ${JSON.stringify(TASKS_GET.method)}: ${names.get(pollRequest)!};`}
}
`;
}
