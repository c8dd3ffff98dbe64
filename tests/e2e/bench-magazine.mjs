// Benchmark (not a test): 1,000 live tasks followed by the app in headless Chromium against
// the real `holdbay serve` on loopback. Records frame times (requestAnimationFrame deltas)
// while the page animates and polls, and the `tasks/get` requests sent against what the
// server's `pollIntervalMs` allows over the same window.
//
//   npm run bench:magazine            (in tests/e2e, after cargo build -p holdbay-server
//                                      and trunk build --release)
//   node bench-magazine.mjs --tasks 1000 --seconds 20 --mode poll|push --view scene|workbench
//
// --mode poll (default): the page's subscriptions/listen requests are answered "method not
//   found" inside the page, so the app follows every task by polling at the server's interval.
// --mode push: the server's listen stream is used; polling is then only a slow safety net.
//
// How the tasks are made: one run_pipeline call through the UI (so the board stores a real
// task in the app's own format), 999 more sent from Node with the same headers and body the
// app sent (only the JSON-RPC id differs), all added to the stored board, then a reload: the
// app follows them as it would after any reload.
//
// Writes target/bench/magazine.json and prints a summary.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg, cpus } from 'node:os';
import { startHoldbay, launchBrowser, openPage, root } from './support.mjs';
import { selectTool, fillField, call, waitForTaskStatus } from './ui.mjs';

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] ? process.argv[at + 1] : fallback;
}
const TASKS = Number(option('tasks', '1000'));
const SECONDS = Number(option('seconds', '20'));
const WARMUP_SECONDS = Number(option('warmup', '3'));
const MODE = option('mode', 'poll');
const VIEW = option('view', 'scene');
const PROFILE = option('profile', null);
const OUT = option('out', join(root, 'target', 'bench', 'magazine.json'));

/** The JSON-RPC result inside a response body, JSON or an SSE stream. */
function rpcResult(text) {
  const trimmed = text.trim();
  const candidates = trimmed.startsWith('{')
    ? [trimmed]
    : trimmed.split('\n').filter((line) => line.startsWith('data:')).map((line) => line.slice(5).trim());
  for (const candidate of candidates) {
    try {
      const message = JSON.parse(candidate);
      if (message.result || message.error) return message;
    } catch {
      // not JSON: a keep-alive or partial line
    }
  }
  throw new Error(`no JSON-RPC result in: ${text.slice(0, 300)}`);
}

/** Run `count` jobs with at most `width` at once. */
async function inParallel(count, width, job) {
  const results = new Array(count);
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < count) {
      const index = next;
      next += 1;
      results[index] = await job(index);
    }
  }));
  return results;
}

function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p + 0.5))];
}

// Installed before the app loads (poll mode): refuse listen requests the way a server
// without subscriptions/listen does, so nothing but polling follows the tasks.
const REFUSE_LISTEN = `(() => {
  const realFetch = window.fetch.bind(window);
  window.fetch = async (input, init) => {
    // The app fetches a Request (gloo-net); its Mcp-Method header names the method.
    const request = input instanceof Request ? input : new Request(input, init);
    if (request.headers.get('Mcp-Method') === 'subscriptions/listen') {
      let id = null;
      try { id = JSON.parse(await request.clone().text()).id; } catch {}
      const refusal = { jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found (refused by the benchmark)' } };
      return new Response(JSON.stringify(refusal), { status: 200, headers: { 'content-type': 'application/json' } });
    }
    return realFetch(request);
  };
})();`;

const holdbay = await startHoldbay(['--max-live-tasks', String(TASKS + 1000)]);
const browser = await launchBrowser();
let report;
try {
  if (MODE === 'poll') await browser.context.addInitScript(REFUSE_LISTEN);
  const first = await openPage(browser.context, `${holdbay.url}/`);
  const creator = first.page;
  await creator.waitForSelector('.select-tool', { timeout: 30000 });

  // 1. One task through the UI; keep the request exactly as the app sent it.
  let template = null;
  creator.on('request', (request) => {
    const body = request.postData() ?? '';
    if (!template && body.includes('"tools/call"')) template = request;
  });
  await selectTool(creator, 'run_pipeline');
  await fillField(creator.locator('#call-panel'), 'duration_seconds', '600');
  await fillField(creator.locator('#call-panel'), 'target', 'production');
  await call(creator);
  await waitForTaskStatus(creator, 'run_pipeline', 'working');
  if (!template) throw new Error('did not see the app send tools/call');
  const headers = { ...(await template.allHeaders()) };
  for (const name of Object.keys(headers)) {
    if (name.startsWith(':') || ['content-length', 'host', 'connection'].includes(name)) delete headers[name];
  }
  const body = template.postDataJSON();
  const url = template.url();

  // 2. The other tasks, from Node, built like the app's request.
  const createStart = Date.now();
  const created = await inParallel(TASKS - 1, 16, async (index) => {
    const request = { ...body, id: `bench-${index}` };
    const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(request) });
    const message = rpcResult(await response.text());
    const task = message.result?.task ?? message.result;
    if (!task?.taskId) throw new Error(`no task created: ${JSON.stringify(message).slice(0, 300)}`);
    return task;
  });
  const createSeconds = (Date.now() - createStart) / 1000;

  // 3. Add them to the board the app stored, in its own format, and reload. The app is
  // closed first (it saves its board when it goes away), and the board is written from a
  // same-origin page that does not run it.
  await creator.close({ runBeforeUnload: true });
  const writer = await browser.context.newPage();
  await writer.goto(`${holdbay.url}/mcp`);
  const stored = await writer.evaluate((made) => {
    const key = Object.keys(localStorage).find((k) => k.startsWith('holdbay/tasks/'));
    const board = JSON.parse(localStorage.getItem(key));
    const [first] = board;
    const now = Date.now();
    for (const task of made) {
      const copy = structuredClone(first);
      Object.assign(copy.tracker, {
        taskId: task.taskId,
        status: task.status,
        statusMessage: task.statusMessage ?? null,
        createdAt: task.createdAt,
        lastUpdatedAt: task.lastUpdatedAt,
        ttlMs: task.ttlMs ?? null,
        pollIntervalMs: task.pollIntervalMs ?? null,
        createdLocallyAtMs: now,
        nextPollAtMs: now,
      });
      copy.lastSnapshot = null;
      board.push(copy);
    }
    localStorage.setItem(key, JSON.stringify(board));
    return { key, count: board.length, bytes: localStorage.getItem(key).length };
  }, created);

  await writer.close();
  const view = VIEW === 'scene' ? '?view=scene' : '';
  const { page, errors } = await openPage(browser.context, `${holdbay.url}/${view}`);
  await page.waitForSelector('#tasks-panel', { timeout: 60000 });
  await page.waitForFunction((count) => {
    const counter = document.querySelector('#tasks-panel .task-count');
    return counter && Number(counter.textContent.replace(/\D/g, '')) >= count;
  }, stored.count, { timeout: 60000 }).catch(async (error) => {
    await page.screenshot({ path: join(root, 'target', 'bench', 'magazine-stuck.png') });
    throw error;
  });
  // --hide-dock: collapse the dock (wire log and findings), to see what drawing it costs.
  if (process.argv.includes('--hide-dock')) await page.click('button:text-is("Hide")');
  // --hide SELECTOR: take one part of the page out of rendering, to see what it costs.
  const hidden = option('hide', null);
  // (A constructed style sheet: the page's Content-Security-Policy refuses a <style> tag.)
  if (hidden) {
    await page.evaluate((selector) => {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(`${selector} { display: none !important; }`);
      document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    }, hidden);
  }
  const sceneShown = await page.evaluate(() => document.querySelector('#scene') !== null);
  await page.waitForTimeout(WARMUP_SECONDS * 1000);

  // 4. Measure: frame deltas in the page, tasks/get requests seen by the browser.
  const sent = { get: 0, other: 0 };
  let counting = false;
  page.on('request', (request) => {
    if (!counting || request.method() !== 'POST') return;
    const text = request.postData() ?? '';
    if (text.includes('"tasks/get"')) sent.get += 1;
    else sent.other += 1;
  });
  const snapshot = await page.evaluate(() => {
    const key = Object.keys(localStorage).find((k) => k.startsWith('holdbay/tasks/'));
    const board = JSON.parse(localStorage.getItem(key) ?? '[]');
    const live = board.filter((t) => !['completed', 'failed', 'cancelled'].includes(t.tracker.status));
    return {
      live: live.length,
      // While a listen stream pushes a task, the engine polls it only every 60 s.
      intervals: live.map((t) => (t.tracker.pushed ? 60000 : t.tracker.pollIntervalMs ?? 1000)),
      pushed: live.filter((t) => t.tracker.pushed).length,
      statuses: live.reduce((all, t) => ({ ...all, [t.tracker.status]: (all[t.tracker.status] ?? 0) + 1 }), {}),
    };
  });
  counting = true;
  // --profile: a CPU profile of the window, summarised by self time (for finding the cost).
  const cdp = PROFILE ? await browser.context.newCDPSession(page) : null;
  if (cdp) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
    await cdp.send('Profiler.start');
  }
  // --trace: a Chrome trace of the window, summarised by the main thread's top-level events.
  const tracer = process.argv.includes('--trace') ? await browser.context.newCDPSession(page) : null;
  const traceEvents = [];
  let traceDone = null;
  if (tracer) {
    tracer.on('Tracing.dataCollected', ({ value }) => traceEvents.push(...value));
    traceDone = new Promise((resolve) => tracer.once('Tracing.tracingComplete', resolve));
    await tracer.send('Tracing.start', { categories: 'devtools.timeline,disabled-by-default-devtools.timeline', transferMode: 'ReportEvents' });
  }
  const frames = await page.evaluate((seconds) => new Promise((resolve) => {
    const deltas = [];
    let last = null;
    const started = performance.now();
    // Long animation frames (> 50 ms): where their time went (script, style+layout).
    const loaf = { count: 0, duration: 0, script: 0, forcedLayout: 0, render: 0, styleLayout: 0, forcedBy: {} };
    const observer = new PerformanceObserver((list) => {
      for (const frame of list.getEntries()) {
        loaf.count += 1;
        loaf.duration += frame.duration;
        const end = frame.startTime + frame.duration;
        if (frame.renderStart) loaf.render += end - frame.renderStart;
        if (frame.styleAndLayoutStart) loaf.styleLayout += end - frame.styleAndLayoutStart;
        for (const script of frame.scripts ?? []) {
          loaf.script += script.duration;
          loaf.forcedLayout += script.forcedStyleAndLayoutDuration ?? 0;
          // Which callback forced it (e.g. FrameRequestCallback, an event, a resolved promise).
          if (script.forcedStyleAndLayoutDuration) {
            const by = `${script.invokerType}: ${script.invoker}`;
            loaf.forcedBy[by] = (loaf.forcedBy[by] ?? 0) + script.forcedStyleAndLayoutDuration;
          }
        }
      }
    });
    try { observer.observe({ type: 'long-animation-frame' }); } catch { /* not supported */ }
    const step = (at) => {
      if (last !== null) deltas.push(at - last);
      last = at;
      if (at - started < seconds * 1000) requestAnimationFrame(step);
      else {
        observer.disconnect();
        resolve({ deltas, windowMs: at - started, loaf });
      }
    };
    requestAnimationFrame(step);
  }), SECONDS);
  counting = false;
  if (tracer) {
    await tracer.send('Tracing.end');
    await traceDone;
    if (process.env.TRACE_OUT) writeFileSync(process.env.TRACE_OUT, JSON.stringify(traceEvents));
    const threads = new Map(traceEvents.filter((e) => e.name === 'thread_name').map((e) => [`${e.pid}/${e.tid}`, e.args?.name]));
    const totals = new Map();
    for (const event of traceEvents) {
      if (event.ph !== 'X') continue;
      const key = `${threads.get(`${event.pid}/${event.tid}`) ?? event.tid}: ${event.name}`;
      totals.set(key, (totals.get(key) ?? 0) + (event.dur ?? 0) / 1000);
    }
    const top = [...totals].sort((a, b) => b[1] - a[1]).slice(0, 25);
    process.stdout.write(top.map(([name, ms]) => `${ms.toFixed(0)} ms ${name}`).join('\n') + '\n');
  }
  if (cdp) {
    const { profile } = await cdp.send('Profiler.stop');
    writeFileSync(PROFILE, JSON.stringify(profile));
    const self = new Map();
    const byId = new Map(profile.nodes.map((node) => [node.id, node]));
    const counts = new Map();
    for (const sample of profile.samples) counts.set(sample, (counts.get(sample) ?? 0) + 1);
    for (const [id, count] of counts) {
      const frame = byId.get(id).callFrame;
      const name = `${frame.functionName || '(anonymous)'} ${frame.url.split('/').pop()}:${frame.lineNumber}`;
      self.set(name, (self.get(name) ?? 0) + count);
    }
    const total = profile.samples.length;
    const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 40);
    process.stdout.write(top.map(([name, count]) => `${(100 * count / total).toFixed(1)}% ${name}`).join('\n') + '\n');
  }

  // Expected: each live task may be polled once per its pollIntervalMs (engine clamps to
  // 250 ms..60 s; with push it polls every 60 s instead).
  const windowMs = frames.windowMs;
  const clamp = (ms) => Math.min(60000, Math.max(250, ms));
  const expected = snapshot.intervals.reduce((sum, ms) => sum + windowMs / clamp(ms), 0);
  const sorted = [...frames.deltas].sort((a, b) => a - b);
  const shot = option('screenshot', null);
  // --color-scheme dark: the screenshot in the dark theme.
  const scheme = option('color-scheme', null);
  if (shot && scheme) await page.emulateMedia({ colorScheme: scheme });
  if (shot) await page.screenshot({ path: shot });
  const counts = await page.evaluate(() => ({
    dom: document.getElementsByTagName('*').length,
    rows: document.querySelectorAll('#tasks-panel .task-row').length,
    wire: document.querySelectorAll('#wire-log .wire-entry').length,
    cartridges: document.querySelectorAll('#scene .cartridge').length,
    tasksNote: document.querySelector('#tasks-panel .task-more')?.textContent ?? null,
    wireNote: document.querySelector('#wire-log .wire-undrawn')?.textContent ?? null,
  }));
  report = {
    when: new Date().toISOString(),
    machine: { cpus: cpus().length, cpu: cpus()[0]?.model, loadAverageAfter: loadavg().map((l) => Number(l.toFixed(2))) },
    mode: MODE,
    view: sceneShown ? 'scene' : 'workbench',
    tasks: { requested: TASKS, stored: stored.count, liveAtStart: snapshot.live, pushedAtStart: snapshot.pushed, statuses: snapshot.statuses, createSeconds, storedBytes: stored.bytes },
    windowMs: Math.round(windowMs),
    frames: {
      count: sorted.length,
      p50: percentile(sorted, 0.5),
      p95: percentile(sorted, 0.95),
      p99: percentile(sorted, 0.99),
      max: sorted.at(-1) ?? null,
      over16_7: sorted.filter((d) => d > 16.7).length,
      // A frame that missed a display refresh (60 Hz) is at least 1.5 periods apart from the last.
      missed: sorted.filter((d) => d > 25).length,
      over50: sorted.filter((d) => d > 50).length,
    },
    longFrames: Object.fromEntries(Object.entries(frames.loaf).map(([k, v]) => [k, typeof v === 'number'
      ? Math.round(v)
      : Object.fromEntries(Object.entries(v).map(([by, ms]) => [by, Math.round(ms)]))])),
    requests: {
      tasksGet: sent.get,
      otherPosts: sent.other,
      expectedTasksGet: Math.round(expected),
      ratio: expected > 0 ? sent.get / expected : null,
    },
    page: counts,
    errors: [...first.errors, ...errors],
  };
  await page.close();
} finally {
  await browser.close();
  holdbay.stop();
}

mkdirSync(join(OUT, '..'), { recursive: true });
writeFileSync(OUT, `${JSON.stringify(report, null, 2)}\n`);
const f = (ms) => (ms === null ? 'n/a' : `${ms.toFixed(1)} ms`);
process.stdout.write([
  `magazine benchmark: ${report.tasks.stored} tasks (${report.tasks.liveAtStart} live), mode ${report.mode}, view ${report.view}, ${(report.windowMs / 1000).toFixed(1)} s window`,
  `frames: ${report.frames.count}, p50 ${f(report.frames.p50)}, p95 ${f(report.frames.p95)}, p99 ${f(report.frames.p99)}, max ${f(report.frames.max)}; over 16.7 ms: ${report.frames.over16_7}, missed a refresh (> 25 ms): ${report.frames.missed}, over 50 ms: ${report.frames.over50}`,
  `tasks/get sent ${report.requests.tasksGet} vs expected Σ(window/pollInterval) ${report.requests.expectedTasksGet} (ratio ${report.requests.ratio?.toFixed(3)}); other POSTs ${report.requests.otherPosts}`,
  `long animation frames: ${report.longFrames.count}, ${report.longFrames.duration} ms in all: script ${report.longFrames.script} ms (forced layout ${report.longFrames.forcedLayout} ms), rendering ${report.longFrames.render} ms (style+layout ${report.longFrames.styleLayout} ms)`,
  `forced layout by caller: ${Object.entries(report.longFrames.forcedBy).sort((a, b) => b[1] - a[1]).slice(0, 5).map(([by, ms]) => `${by} ${ms} ms`).join('; ') || 'none'}`,
  `load average after (1/5/15 min, ${report.machine.cpus} CPUs): ${report.machine.loadAverageAfter.join(' ')}`,
  `page: ${report.page.dom} elements, ${report.page.rows} task rows, ${report.page.wire} wire rows, ${report.page.cartridges} cartridges; errors: ${report.errors.length}`,
  `written to ${OUT}`,
  '',
].join('\n'));
