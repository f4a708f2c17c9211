#!/usr/bin/env node
// `npm run bench -- reader-fidelity [options]`: bench/reader-fidelity/compare.mjs (options as there).
await import('./compare.mjs');
