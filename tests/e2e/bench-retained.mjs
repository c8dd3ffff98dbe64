// What the page retains as calls pile up: 10,000 `echo` calls (a 16 KiB message each way)
// through the real UI against the real demo server, the wasm memory sampled every 1,000
// calls. The wire log's byte budget (src/wire/budget.rs) fills after about a thousand;
// memory must go flat from there. Not a test: a benchmark, reported in docs/benchmarks.md.
//
//   cd tests/e2e && node bench-retained.mjs [--calls 10000] [--every 1000]
import { startHoldbay, launchBrowser, openCleanApp } from './support.mjs';
import { selectTool, fillField } from './ui.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const calls = option('calls', 10_000);
const every = option('every', 1_000);
const MiB = 1024 * 1024;

const holdbay = await startHoldbay();
const browser = await launchBrowser();
try {
  await browser.context.addInitScript(() => {
    addEventListener('TrunkApplicationStarted', (event) => { window.__holdbayWasm = event.detail.wasm; });
    const original = window.fetch;
    window.__answered = 0;
    window.fetch = async (...request) => {
      const response = await original(...request);
      window.__answered += 1;
      return response;
    };
  });
  const { page } = await openCleanApp(browser.context, holdbay.url);
  await selectTool(page, 'echo');
  await fillField(page.locator('#call-panel'), 'message', 'm'.repeat(16 * 1024));
  const started = Date.now();
  console.log('calls\twasm memory (MiB)\twire log rows\tseconds');
  for (let done = 0; done < calls; done += every) {
    await page.evaluate(async (count) => {
      const settled = () => new Promise((resolve) => {
        const check = () => (document.querySelector('#call-panel .call-result') ? resolve() : setTimeout(check, 1));
        check();
      });
      for (let i = 0; i < count; i += 1) {
        const before = window.__answered;
        document.querySelector('#call-panel button.call').click();
        while (window.__answered === before) await new Promise((r) => setTimeout(r, 1));
        await settled();
      }
    }, every);
    const memory = await page.evaluate(() => window.__holdbayWasm.memory.buffer.byteLength);
    const rows = await page.locator('#dock-tab-wire .count').innerText().catch(() => '?');
    console.log(`${done + every}\t${(memory / MiB).toFixed(1)}\t${rows}\t${((Date.now() - started) / 1000).toFixed(0)}`);
  }
} finally {
  await browser.close();
  holdbay.stop();
}
