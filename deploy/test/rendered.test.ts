// The NATS configurations and the MongoDB users script are rendered from deploy/src/access.ts: the committed files
// must be exactly its output, so permissions are changed in one place. UPDATE_RENDERED=1 rewrites them.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { renderedFiles } from '../src/access.js';
import { readRepoFile, repoFileExists, repoRoot } from './support/manifests.js';

const files = Object.entries(renderedFiles());

if (process.env.UPDATE_RENDERED === '1') {
  for (const [path, text] of files) writeFileSync(join(repoRoot, path), text);
}

describe('files rendered from deploy/src/access.ts', () => {
  it.each(files)('%s is up to date', (path, text) => {
    expect(repoFileExists(path)).toBe(true);
    expect(readRepoFile(path)).toBe(text);
  });
});
