#!/usr/bin/env node
// Installed as the `murmur` command; the CLI itself is compiled to dist/.
await import('../dist/main.js');
