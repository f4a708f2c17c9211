// The suite-wide JSON Feed validator (test-e2e/support/jsonfeed.ts).
export * from '../../../test-e2e/support/jsonfeed.js';
