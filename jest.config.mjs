// One jest run for the whole workspace. Tests are ESM TypeScript compiled on the fly by swc;
// workspace packages are mapped to their sources so unit tests need no build.
const swc = ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'es6' } }];

export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': swc },
  moduleNameMapper: {
    '^@murmur/platform$': '<rootDir>/libs/platform/src/index.ts',
    '^@murmur/platform/testing$': '<rootDir>/libs/platform/src/testing/index.ts',
    '^@murmur/contracts$': '<rootDir>/libs/contracts/src/index.ts',
    '^@murmur/identity$': '<rootDir>/services/identity/src/index.ts',
    '^@murmur/gateway$': '<rootDir>/gateway/src/index.ts',
    '^@murmur/cli$': '<rootDir>/cli/src/index.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  testMatch: ['<rootDir>/**/test/**/*.test.ts', '<rootDir>/test-e2e/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  testTimeout: 30000,
  maxWorkers: 2,
};
