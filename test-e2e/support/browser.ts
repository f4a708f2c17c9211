// Headless Chromium for the browser tests: Debian's chromium package driven by playwright-core
// (which downloads no browser of its own). Without a binary the tests are skipped with a visible
// title — unless REQUIRE_BROWSER=1 (CI), where that is a failure.
import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { chromium } from 'playwright-core';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function describeWithBrowser(title: string, fn: () => void): void {
  const { describe, test } = globalThis as unknown as {
    describe: ((name: string, fn: () => void) => void) & { skip(name: string, fn: () => void): void };
    test: (name: string, fn: () => void) => void;
  };
  if (existsSync(chromiumPath)) return describe(title, fn);
  if (process.env.REQUIRE_BROWSER === '1') {
    return describe(title, () => {
      test('chromium is required (REQUIRE_BROWSER=1)', () => {
        throw new Error(
          `REQUIRE_BROWSER=1 but no chromium at ${chromiumPath}: install it or set CHROMIUM_PATH`,
        );
      });
    });
  }
  describe.skip(`${title} — SKIPPED: no chromium at ${chromiumPath}`, fn);
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    args: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
