/**
 * The fuzzer's seeds: the team's fixture payloads (test/fixtures/payloads), in the order the
 * fixtures module lists them, which is what keeps a seed's cases the same run to run.
 */
import { fixtures } from '../../test/fixtures/payloads.js';

/** A fixture payload a case starts from. */
export interface Seed {
  /** `3.1/get_products.valid`: the release folder and the file's name */
  readonly id: string;
  readonly version: string;
  readonly task: string;
  /** The file's text. */
  readonly text: string;
}

/** Every fixture payload, sorted by version folder and file name. */
export const seeds: readonly Seed[] = fixtures.map(({ id, version, task, text }) => ({ id, version, task, text }));

/** The tasks the fixtures cover. */
export const TASKS = [...new Set(seeds.map((s) => s.task))];
