// Chromium driven over the DevTools protocol directly, on a pipe, without Playwright: for
// measuring a page without the driver's own work per request. Playwright follows every
// request a page sends (its network events cross to Node and become objects there), which
// on two cores is a cost of its own once a page sends hundreds of requests a second.
import { spawn } from 'node:child_process';

/** Chromium on `profile` (a user-data dir, e.g. one Playwright filled), 1280×720. */
export async function launchRawChromium(profile, { width = 1280, height = 720 } = {}) {
  const child = spawn(process.env.CHROMIUM ?? '/usr/bin/chromium', [
    // What the e2e tests launch with (support.mjs)...
    '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
    // ... and the switches Playwright adds that bear on timing, so both browsers run alike.
    '--disable-background-timer-throttling', '--disable-backgrounding-occluded-windows',
    '--disable-renderer-backgrounding', '--disable-ipc-flooding-protection',
    '--disable-hang-monitor', '--disable-back-forward-cache', '--disable-field-trial-config',
    '--disable-features=PaintHolding,OptimizationHints', '--force-color-profile=srgb',
    '--hide-scrollbars', '--mute-audio',
    `--user-data-dir=${profile}`, `--window-size=${width},${height}`,
    '--remote-debugging-pipe', 'about:blank',
  ], { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] });
  const toBrowser = child.stdio[3];
  const fromBrowser = child.stdio[4];
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let nextId = 1;
  const pending = new Map();
  const listeners = new Set();
  let buffered = Buffer.alloc(0);
  fromBrowser.on('data', (chunk) => {
    buffered = Buffer.concat([buffered, chunk]);
    let end;
    while ((end = buffered.indexOf(0)) >= 0) {
      const message = JSON.parse(buffered.subarray(0, end).toString('utf8'));
      buffered = buffered.subarray(end + 1);
      const waiting = message.id !== undefined && pending.get(message.id);
      if (waiting) {
        pending.delete(message.id);
        if (message.error) waiting.reject(new Error(`${waiting.method}: ${message.error.message}`));
        else waiting.resolve(message.result);
      } else {
        listeners.forEach((listen) => listen(message));
      }
    }
  });
  const send = (method, params = {}, sessionId = undefined) => new Promise((resolve, reject) => {
    const id = nextId;
    nextId += 1;
    pending.set(id, { resolve, reject, method });
    toBrowser.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
  });

  /** A tab at `url`, with `initScripts` run before any of the page's own. */
  async function openPage(url, { initScripts = [] } = {}) {
    const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
    const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
    const on = (method, handle) => listeners.add((message) => {
      if (message.sessionId === sessionId && message.method === method) handle(message.params);
    });
    const errors = [];
    on('Runtime.exceptionThrown', ({ exceptionDetails }) => errors.push(
      `pageerror: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`));
    on('Runtime.consoleAPICalled', ({ type, args }) => {
      if (type === 'error') errors.push(`console: ${args.map((arg) => arg.value ?? arg.description).join(' ')}`);
    });
    const page = {
      errors,
      send: (method, params) => send(method, params, sessionId),
      on,
      /** The value `expression` (awaited if a promise) comes to. */
      async evaluate(expression) {
        const { result, exceptionDetails } = await send('Runtime.evaluate', {
          expression, awaitPromise: true, returnByValue: true,
        }, sessionId);
        if (exceptionDetails) {
          throw new Error(`evaluate: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`);
        }
        return result.value;
      },
      /** `fn(arg)` in the page (`fn` must not close over anything of Node's). */
      call(fn, arg) {
        return this.evaluate(`(${fn.toString()})(${JSON.stringify(arg ?? null)})`);
      },
      async screenshot() {
        const { data } = await send('Page.captureScreenshot', { format: 'png' }, sessionId);
        return Buffer.from(data, 'base64');
      },
    };
    await page.send('Page.enable');
    await page.send('Runtime.enable');
    await page.send('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor: 1, mobile: false });
    for (const source of initScripts) await page.send('Page.addScriptToEvaluateOnNewDocument', { source });
    await page.send('Page.navigate', { url });
    return page;
  }

  return {
    openPage,
    async close() {
      await send('Browser.close').catch(() => {});
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
      child.kill();
    },
  };
}
