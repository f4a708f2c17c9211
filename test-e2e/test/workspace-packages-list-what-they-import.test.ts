// Every package of the workspace lists exactly what its production code imports (docs/adr/0018): inside
// the workspace a missing dependency still resolves (the root links every lib for the tests), so only a
// production install of one package would find it. And the layers stay apart: nothing in libs/ imports
// a service or the gateway, and no service imports another.
import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import ts from 'typescript';

const root = join(import.meta.dirname, '..', '..');
const SERVICES = readdirSync(join(root, 'services'));

function packageDirs(): string[] {
  const dirs = [
    ...readdirSync(join(root, 'libs')).map((d) => `libs/${d}`),
    ...SERVICES.map((d) => `services/${d}`),
    'gateway',
    'cli',
  ];
  return dirs.filter((d) => existsSync(join(root, d, 'src')));
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (entry.endsWith('.ts') && !entry.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

const BUILTIN = new Set(builtinModules);

/** The packages a folder's source imports (static, re-exported, dynamic with a literal), by name. */
function importedPackages(dir: string): Set<string> {
  const names = new Set<string>();
  for (const file of sourceFiles(dir)) {
    // TypeScript's own scanner: imports, re-exports and import() with a literal, never text in comments.
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName: spec } of importedFiles) {
      if (spec.startsWith('.') || spec.startsWith('node:') || BUILTIN.has(spec)) continue;
      names.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
    }
  }
  return names;
}

describe('workspace packages', () => {
  for (const dir of packageDirs()) {
    const manifest = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) as {
      name: string;
      dependencies?: Record<string, string>;
    };
    it(`${dir} depends on what its src imports, and on nothing else`, () => {
      const imported = importedPackages(join(root, dir, 'src'));
      imported.delete(manifest.name);
      const declared = new Set(Object.keys(manifest.dependencies ?? {}));
      expect({ missing: [...imported].filter((n) => !declared.has(n)).sort() }).toEqual({ missing: [] });
      expect({ unused: [...declared].filter((n) => !imported.has(n)).sort() }).toEqual({ unused: [] });
    });
  }

  it('nothing in libs/ imports a service or the gateway, and no service imports another', () => {
    const services = new Set([...SERVICES.map((s) => `@murmur/${s}`), '@murmur/gateway', '@murmur/cli']);
    const crossings: string[] = [];
    for (const dir of packageDirs()) {
      const own = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')).name as string;
      if (dir === 'cli') continue; // the single-process launcher starts them all
      for (const name of importedPackages(join(root, dir, 'src')))
        if (services.has(name) && name !== own) crossings.push(`${dir} → ${name}`);
    }
    expect(crossings).toEqual([]);
  });
});
