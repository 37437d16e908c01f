import { SLOW } from './vitest.config.js';
import { lane } from './vitest.unit.config.js';

/**
 * The slow lane, `npm run test:slow`: the files vitest.config.ts lists as SLOW, left out of the unit
 * lane, with every case (no ADCP_TEST_LANE), as `npm test` runs them.
 */
export default lane('slow', SLOW, []);
