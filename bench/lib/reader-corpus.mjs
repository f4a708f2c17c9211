// The reader's fixture corpus for the parser benchmarks (bench/reader/parsers.mjs,
// bench/reader-fidelity/compare.mjs): services/reader/test/corpus.ts is TypeScript and lives with the
// tests, so it is transpiled on the fly, its imports pointed at the reader's own dependencies.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The CORPUS of services/reader/test/corpus.ts: its cases (bytes, Content-Type, what each must read as). */
export async function loadReaderCorpus() {
  const corpusPath = join(root, 'services', 'reader', 'test', 'corpus.ts');
  const ts = createRequire(join(root, 'package.json'))('typescript');
  const readerRequire = createRequire(join(root, 'services', 'reader', 'package.json'));
  let js = ts.transpileModule(readFileSync(corpusPath, 'utf8'), {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  js = js
    .replace(/from 'iconv-lite'/, `from '${pathToFileURL(readerRequire.resolve('iconv-lite')).href}'`)
    .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(corpusPath).href));
  const dir = mkdtempSync(join(tmpdir(), 'murmur-corpus-'));
  try {
    writeFileSync(join(dir, 'corpus.mjs'), js);
    return (await import(pathToFileURL(join(dir, 'corpus.mjs')).href)).CORPUS;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
