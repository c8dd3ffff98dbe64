// Benchmark (not a test): time from navigation to the first rendered tool list, and the
// bytes the first load transfers, in headless Chromium against the real `holdbay serve`
// on loopback.
//
//   node tests/e2e/bench-first-tools.mjs        (after trunk build --release)
//
// Prints the figures and writes them to target/holdbay-bench/app_load.txt.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startHoldbay, launchBrowser, root } from './support.mjs';

const LOADS = 20;

const holdbay = await startHoldbay();
const browser = await launchBrowser();
const times = [];
let transfer = null;
try {
  for (let load = 0; load < LOADS; load += 1) {
    const page = await browser.context.newPage();
    // A cold cache every time: the first visit is what a newcomer waits for.
    const cdp = await browser.context.newCDPSession(page);
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await page.goto(`${holdbay.url}/`);
    await page.waitForSelector('.tool-name', { timeout: 30000 });
    times.push(await page.evaluate(() => performance.now()));
    if (transfer === null) {
      transfer = await page.evaluate(() => {
        const sizes = { wasm: 0, js: 0, css: 0, html: 0 };
        for (const entry of performance.getEntriesByType('resource')) {
          const kind = entry.name.endsWith('.wasm') ? 'wasm'
            : entry.name.endsWith('.js') ? 'js'
              : entry.name.endsWith('.css') ? 'css' : null;
          if (kind) sizes[kind] += entry.transferSize;
        }
        const [navigation] = performance.getEntriesByType('navigation');
        sizes.html = navigation?.transferSize ?? 0;
        return sizes;
      });
    }
    await page.close();
  }
} finally {
  await browser.close();
  holdbay.stop();
}
times.sort((a, b) => a - b);
const at = (p) => times[Math.min(times.length - 1, Math.round((times.length - 1) * p))];
const total = transfer.wasm + transfer.js + transfer.css;
const report = [
  `holdbay app load (${LOADS} cold loads, headless Chromium, loopback)`,
  `navigation to first rendered tool list: p50 ${at(0.5).toFixed(0)} ms, p95 ${at(0.95).toFixed(0)} ms, min ${times[0].toFixed(0)} ms`,
  `first-load transfer (gzip as served): wasm ${transfer.wasm} B, js ${transfer.js} B, css ${transfer.css} B, total ${total} B (${(total / 1024).toFixed(1)} KiB); html ${transfer.html} B`,
  '',
].join('\n');
process.stdout.write(report);
const out = join(root, 'target', 'holdbay-bench');
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'app_load.txt'), report);
