/**
 * @touchbase/testing: database and Redis isolation for tests, and waiting on
 * conditions instead of sleeping.
 */

export { CHROMIUM, CHROMIUM_ARGS } from './chromium.js';
export { bounceCorpusDir, IN_REPO_CORPORA_DIR } from './corpus.js';
export { createTestDatabase, type TestDatabase } from './database.js';
export { freePort, onFreePort, PortTakenError } from './free-port.js';
export { createTestRedisPrefix } from './redis.js';
export { FIELD_EXAMPLE_GRAPH } from './sequence-graphs.js';
export { waitFor } from './wait-for.js';
