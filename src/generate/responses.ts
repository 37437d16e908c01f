/**
 * The task → type maps of a release: per task, the sync response and its async variants,
 * discriminated by `status` (`Responses`); the request (`Requests`); and per task type whose
 * terminal result is not its own task's response, what it is (`Results`). A bundled release writes
 * them into `responses.ts` (bundled.ts); a release module into its `index.d.ts` (module.ts).
 */

import { TASKS_GET, tasksGetRequest } from './envelopes.js';
import type { Manifest } from './load.js';

/** The two maps of a release, and the type names they use (from its types module). */
export interface ResponseMaps {
  /** The schema types the maps name, sorted. */
  readonly types: readonly string[];
  /** The declarations of `Responses`, `Requests` and `Results`. */
  readonly text: string;
}

/**
 * What `decode(task, ...)` returns for each task of a release (`Responses`) and what
 * `encode(task, ...)` takes (`Requests`), as declarations.
 *
 * @param manifest The release's tasks.
 * @param names `$id` → type name (as the types module exports it).
 * @returns The declarations and the type names they use.
 * @example
 * responseMaps(manifest, names).text;
 */
export function responseMaps(manifest: Manifest, names: ReadonlyMap<string, string>): ResponseMaps {
  const { version } = manifest;
  const ids = new Set<string>();
  // 3.0's poll request (tasks/get) is no task, but encode() builds it: the one request beside the tasks'.
  const pollRequest = tasksGetRequest(manifest);
  if (pollRequest !== undefined) ids.add(pollRequest);
  for (const t of manifest.tasks) {
    ids.add(t.request);
    ids.add(t.response);
    for (const id of Object.values(t.async)) ids.add(id);
  }
  const overrides = Object.entries(manifest.resultOverrides ?? {});
  for (const [, id] of overrides) ids.add(id);
  const types = [...new Set([...ids].map((id) => names.get(id)!))].sort();
  const results = overrides.map(([taskType, id]) => `  ${taskType}: SyncVariant<${names.get(id)!}>;`);
  const entries = manifest.tasks.map((t) => {
    const asyncStatuses = Object.keys(t.async).map((s) => JSON.stringify(s));
    const variants = [
      `SyncVariant<${[names.get(t.response)!, ...(asyncStatuses.length > 0 ? [asyncStatuses.join(' | ')] : [])].join(', ')}>`,
    ];
    for (const [s, id] of Object.entries(t.async)) variants.push(`AsyncVariant<${names.get(id)!}, ${JSON.stringify(s)}>`);
    return `  ${t.name}: ${variants.join(' | ')};`;
  });
  const text = `/**
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

/**
 * What a terminal result (a webhook's or a polled task's \`result\`) is, per task type whose result
 * is not its own task's response; every other task type's result is its task's response.
 */
export interface Results {
${results.join('\n')}
}
`;
  return { types, text };
}
