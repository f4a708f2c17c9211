// The jest configuration of the whole workspace (`npm test` runs the chaos suite in a pass of its own,
// scripts/murmur.mjs). Tests are ESM TypeScript compiled on the fly by swc;
// workspace packages are mapped to their sources so unit tests need no build.
const swc = [
  '@swc/jest',
  { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'es6' } },
];

export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': swc },
  moduleNameMapper: {
    // libs/<name> is @murmur/<name>
    '^@murmur/(contracts|core|store|store-embedded|store-mongodb|bus|bus-nats|jobs|http|identity-client|fetch|runtime|testing)$':
      '<rootDir>/libs/$1/src/index.ts',
    '^@murmur/identity$': '<rootDir>/services/identity/src/index.ts',
    '^@murmur/reader$': '<rootDir>/services/reader/src/index.ts',
    '^@murmur/publishing$': '<rootDir>/services/publishing/src/index.ts',
    '^@murmur/feeds$': '<rootDir>/services/feeds/src/index.ts',
    '^@murmur/archive$': '<rootDir>/services/archive/src/index.ts',
    '^@murmur/webmention$': '<rootDir>/services/webmention/src/index.ts',
    '^@murmur/push$': '<rootDir>/services/push/src/index.ts',
    '^@murmur/microsub$': '<rootDir>/services/microsub/src/index.ts',
    '^@murmur/federation$': '<rootDir>/services/federation/src/index.ts',
    '^@murmur/websub$': '<rootDir>/services/websub/src/index.ts',
    '^@murmur/gateway$': '<rootDir>/gateway/src/index.ts',
    '^@murmur/gateway/testing$': '<rootDir>/gateway/src/testing.ts',
    '^@murmur/cli$': '<rootDir>/cli/src/index.ts',
    // light-my-request (behind app.inject) require()s cookie@2, which is ESM-only; jest cannot require ESM on
    // Node 20, so tests get cookie@1.1 (CommonJS, same stringifySetCookie/parse API) instead.
    '^cookie$': '<rootDir>/node_modules/cookie-cjs/dist/index.js',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  testMatch: ['<rootDir>/**/test/**/*.test.ts', '<rootDir>/test-e2e/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  // Hooks and tests that start services (stores, bus, HTTP servers) took 30–50 s on the shared 2-core CI
  // machine under load (a harness's beforeAll, 101 durable registrations): an outcome, not a time, is tested.
  testTimeout: 60000,
  maxWorkers: 2,
  // Each test file's modules (services, their libraries) stay in a worker's heap after it: workers reached
  // 4.5 GB each over a whole run, and a service starting in a heap that size waited on the collector.
  // A worker past this size between files is replaced by a fresh one.
  workerIdleMemoryLimit: '1.5GB',
};
