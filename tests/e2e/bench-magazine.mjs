// Benchmark (not a test): 1,000 live tasks followed by the app in headless Chromium against
// the real `holdbay serve` on loopback. Records frame times (requestAnimationFrame deltas)
// while the page polls, and every `tasks/get` the page sends: how many against what the
// server's `pollIntervalMs` allows over the same window, and the observed interval between
// two polls of one task.
//
//   cd tests/e2e && HOLDBAY_BIN=../../target/server/holdbay npm run bench:magazine
//   (after bash scripts/build-app.sh: the release app in dist/, the server in target/server)
//   node bench-magazine.mjs --tasks 1000 --seconds 20 --poll-interval 5000 --mode poll|push
//                           --view scene|workbench
//
// --poll-interval MS (default 5000): the server announces pollIntervalMs = MS for the tasks
//   (holdbay serve --min-task-poll-interval-ms; 0 keeps run_pipeline's own, 1,000). The
//   stored tasks' first polls are spread over one interval (as tasks created one after
//   another would be), the warm-up lasts an interval and 5 s more (--warmup overrides), and
//   the report says how timely each task's polls were: every gap between two tasks/get of
//   one task (the observed interval) and its excess over pollIntervalMs (lateness), and the
//   polls still overdue at the end.
// --mode poll (default): the page's subscriptions/listen requests are answered "method not
//   found" inside the page, so the app follows every task by polling at the server's interval.
// --mode push: the server's listen stream is used; polling is then only a slow safety net.
// --trace (main-thread time by event), --profile FILE (CPU profile, self time), --mutations
//   (DOM mutations by part), --hide SELECTOR, --css RULES, --hide-dock: to find where a
//   frame's time goes. --screenshot FILE [--color-scheme dark]: the page after the window.
//
// How the tasks are made: one run_pipeline call through the UI (so the board stores a real
// task in the app's own format), 999 more sent from Node with the same headers and body the
// app sent (only the JSON-RPC id differs), all added to the stored board. Then the browser
// closes and the same profile opens again in Chromium driven over a raw DevTools pipe
// (raw-chromium.mjs), without Playwright: the app follows the tasks as after any reload, and
// the measured page pays nothing for a driver following its requests. The page itself notes
// every request it sends (two headers read per fetch).
//
// Writes target/bench/magazine.json and prints a summary.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg, cpus, tmpdir } from 'node:os';
import { startHoldbay, launchBrowser, openPage, root } from './support.mjs';
import { launchRawChromium } from './raw-chromium.mjs';
import { selectTool, fillField, call, waitForTaskStatus } from './ui.mjs';

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] ? process.argv[at + 1] : fallback;
}
const TASKS = Number(option('tasks', '1000'));
const SECONDS = Number(option('seconds', '20'));
// 0: the tools' own interval (no floor on the server).
const POLL_INTERVAL_MS = Number(option('poll-interval', '5000')) || null;
const WARMUP_SECONDS = Number(option('warmup', POLL_INTERVAL_MS ? String(POLL_INTERVAL_MS / 1000 + 5) : '3'));
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

/**
 * How timely the page's polls were in the window: for every task, each gap between two of
 * its tasks/get against its pollIntervalMs (a poll is due one interval after the last one
 * went, so the gap's excess is how late the next one went), and the polls still overdue at
 * the window's end (due, never sent: a late poll not yet counted by any gap).
 */
async function pollTimeliness(page, frames, snapshot) {
  const { flat, waits } = await page.evaluate('({ flat: window.__benchSent ?? [], waits: window.__benchPollWaits ?? [] })');
  const sortedWaits = [...waits].sort((a, b) => a - b);
  const clamp = (ms) => Math.min(60000, Math.max(250, ms));
  const intervalOf = new Map(snapshot.tasks.map((t) => [t.id, clamp(t.interval)]));
  const nextPollAt = new Map(snapshot.tasks.map((t) => [t.id, t.nextPollAt]));
  const times = new Map();
  let inWindow = 0;
  let othersInWindow = 0;
  for (let i = 0; i + 2 < flat.length; i += 3) {
    const [at, method, id] = [flat[i], flat[i + 1], flat[i + 2]];
    const within = at >= frames.startedAtMs && at <= frames.endedAtMs;
    if (method !== 'tasks/get') {
      if (within) othersInWindow += 1;
      continue;
    }
    if (!times.has(id)) times.set(id, []);
    times.get(id).push(at);
    if (within) inWindow += 1;
  }
  const lateness = [];
  // The observed per-task poll interval: each gap between two tasks/get of one task.
  const gaps = [];
  let early = 0;
  let overdueAtEnd = 0;
  const overdueBy = [];
  let tasksPolledInWindow = 0;
  for (const [id, interval] of intervalOf) {
    const all = times.get(id) ?? [];
    // Gaps that end in the window (the first poll may be before it).
    let polled = false;
    for (let k = 1; k < all.length; k += 1) {
      if (all[k] < frames.startedAtMs || all[k] > frames.endedAtMs) continue;
      polled = true;
      const gap = all[k] - all[k - 1];
      gaps.push(gap);
      const late = gap - interval;
      lateness.push(late);
      if (late < -5) early += 1;
    }
    if (polled) tasksPolledInWindow += 1;
    const last = all.filter((t) => t <= frames.endedAtMs).at(-1);
    // Never polled yet: due when the stored board said.
    const dueAt = last === undefined ? nextPollAt.get(id) ?? null : last + interval;
    if (dueAt !== null && dueAt < frames.endedAtMs) {
      overdueAtEnd += 1;
      overdueBy.push(frames.endedAtMs - dueAt);
    }
  }
  const sortedLate = [...lateness].sort((a, b) => a - b);
  const sortedGaps = [...gaps].sort((a, b) => a - b);
  const sortedOverdue = [...overdueBy].sort((a, b) => a - b);
  const round = (ms) => (ms === null ? null : Math.round(ms));
  return {
    sentInWindow: inWindow,
    othersInWindow,
    gaps: sortedLate.length,
    intervalMs: {
      p50: round(percentile(sortedGaps, 0.5)),
      p95: round(percentile(sortedGaps, 0.95)),
      min: round(sortedGaps[0] ?? null),
      max: round(sortedGaps.at(-1) ?? null),
    },
    latenessMs: {
      p50: round(percentile(sortedLate, 0.5)),
      p95: round(percentile(sortedLate, 0.95)),
      p99: round(percentile(sortedLate, 0.99)),
      max: round(sortedLate.at(-1) ?? null),
      min: round(sortedLate[0] ?? null),
    },
    within100ms: sortedLate.filter((l) => l <= 100).length,
    within250ms: sortedLate.filter((l) => l <= 250).length,
    within1s: sortedLate.filter((l) => l <= 1000).length,
    early,
    tasks: intervalOf.size,
    tasksPolledInWindow,
    overdueAtEnd,
    overdueAtEndMs: { p50: round(percentile(sortedOverdue, 0.5)), max: round(sortedOverdue.at(-1) ?? null) },
    // From fetch to the response's headers, every tasks/get since the page loaded.
    responseWaitMs: { count: waits.length, p50: round(percentile(sortedWaits, 0.5)), p95: round(percentile(sortedWaits, 0.95)) },
  };
}

// Installed before the app loads (poll mode): refuse listen requests the way a server
// without subscriptions/listen does, so nothing but polling follows the tasks.
const REFUSE_LISTEN = `(() => {
  const realFetch = window.fetch.bind(window);
  window.fetch = (input, init) => {
    // The app fetches a URL with an init (or a Request); its Mcp-Method header names the
    // method. Read in place: this runs for every request the page sends.
    const headers = input instanceof Request
      ? input.headers
      : init?.headers instanceof Headers ? init.headers : new Headers(init?.headers);
    if (headers.get('Mcp-Method') !== 'subscriptions/listen') return realFetch(input, init);
    return (async () => {
      const request = input instanceof Request ? input : new Request(input, init);
      let id = null;
      try { id = JSON.parse(await request.clone().text()).id; } catch {}
      const refusal = { jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found (refused by the benchmark)' } };
      return new Response(JSON.stringify(refusal), { status: 200, headers: { 'content-type': 'application/json' } });
    })();
  };
})();`;

// Installed before the app loads (every mode): note when the page sends each request, its
// method, and for a tasks/get its task (the Mcp-Name header), reading two headers and
// nothing else.
const RECORD_REQUESTS = `(() => {
  const realFetch = window.fetch.bind(window);
  // [at (epoch ms), method, name] for every request, flat.
  window.__benchSent = [];
  // How long each tasks/get waited for its response's headers (ms).
  window.__benchPollWaits = [];
  window.fetch = (input, init) => {
    const headers = input instanceof Request
      ? input.headers
      : init?.headers instanceof Headers ? init.headers : new Headers(init?.headers);
    const method = headers.get('Mcp-Method');
    const sentAt = performance.now();
    window.__benchSent.push(performance.timeOrigin + sentAt, method, headers.get('Mcp-Name'));
    if (method !== 'tasks/get') return realFetch(input, init);
    return realFetch(input, init).then((response) => {
      window.__benchPollWaits.push(performance.now() - sentAt);
      return response;
    });
  };
})();`;

const serveArgs = ['--max-live-tasks', String(TASKS + 1000)];
if (POLL_INTERVAL_MS) serveArgs.push('--min-task-poll-interval-ms', String(POLL_INTERVAL_MS));
const holdbay = await startHoldbay(serveArgs);
// One profile for both browsers: Playwright's, which makes the tasks, then the raw one.
const profile = mkdtempSync(join(tmpdir(), 'holdbay-bench-'));
let report;
try {
  // 1. One task through the UI; keep the request exactly as the app sent it.
  const setup = await launchBrowser({ profile });
  let created;
  let createSeconds;
  let template = null;
  let stored;
  const setupErrors = [];
  try {
    if (MODE === 'poll') await setup.context.addInitScript(REFUSE_LISTEN);
    const first = await openPage(setup.context, `${holdbay.url}/`);
    const creator = first.page;
    await creator.waitForSelector('.select-tool', { timeout: 30000 });
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
    created = await inParallel(TASKS - 1, 16, async (index) => {
      const request = { ...body, id: `bench-${index}` };
      const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(request) });
      const message = rpcResult(await response.text());
      const task = message.result?.task ?? message.result;
      if (!task?.taskId) throw new Error(`no task created: ${JSON.stringify(message).slice(0, 300)}`);
      return task;
    });
    createSeconds = (Date.now() - createStart) / 1000;

    // 3. Add them to the board the app stored, in its own format. The app is closed first
    // (it saves its board when it goes away), and the board is written from a same-origin
    // page that does not run it.
    await creator.close({ runBeforeUnload: true });
    setupErrors.push(...first.errors);
    const writer = await setup.context.newPage();
    await writer.goto(`${holdbay.url}/mcp`);
    stored = await writer.evaluate(({ made, spreadMs }) => {
      const key = Object.keys(localStorage).find((k) => k.startsWith('holdbay/tasks/'));
      const board = JSON.parse(localStorage.getItem(key));
      const [first] = board;
      const now = Date.now();
      for (const [index, task] of made.entries()) {
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
          // Spread over one interval (--poll-interval), as tasks created one after another.
          nextPollAtMs: now + Math.round((spreadMs * index) / made.length),
        });
        copy.lastSnapshot = null;
        board.push(copy);
      }
      localStorage.setItem(key, JSON.stringify(board));
      return { key, count: board.length, bytes: localStorage.getItem(key).length };
    }, { made: created, spreadMs: POLL_INTERVAL_MS ?? 0 });
    await writer.close();
  } finally {
    // Closed gracefully, so what the pages stored is on disk for the next browser.
    await setup.close();
  }

  // 4. The app again, in Chromium without Playwright, following the stored tasks.
  const chrome = await launchRawChromium(profile);
  try {
    const view = VIEW === 'scene' ? '?view=scene' : '';
    const initScripts = [...(MODE === 'poll' ? [REFUSE_LISTEN] : []), RECORD_REQUESTS];
    const page = await chrome.openPage(`${holdbay.url}/${view}`, { initScripts });
    const shownAll = await page.call((count) => new Promise((resolve) => {
      const started = performance.now();
      const look = () => {
        const counter = document.querySelector('#tasks-panel .task-count');
        if (counter && Number(counter.textContent.replace(/\D/g, '')) >= count) resolve(true);
        else if (performance.now() - started > 60000) resolve(false);
        else setTimeout(look, 200);
      };
      look();
    }), stored.count);
    if (!shownAll) {
      mkdirSync(join(root, 'target', 'bench'), { recursive: true });
      writeFileSync(join(root, 'target', 'bench', 'magazine-stuck.png'), await page.screenshot());
      throw new Error(`the page did not show its ${stored.count} tasks within 60 s`);
    }
    // --hide-dock: collapse the dock (wire log and findings), to see what drawing it costs.
    if (process.argv.includes('--hide-dock')) {
      await page.evaluate('[...document.querySelectorAll("button")].find((b) => b.textContent.trim() === "Hide")?.click()');
    }
    // --hide SELECTOR: take one part of the page out of rendering; --css RULES: add style
    // rules (to try a change of style without a build). A constructed style sheet: the
    // page's Content-Security-Policy refuses a <style> tag.
    const rules = [option('hide', null) && `${option('hide', null)} { display: none !important; }`, option('css', null)]
      .filter(Boolean).join('\n');
    if (rules) {
      await page.call((text) => {
        const sheet = new CSSStyleSheet();
        sheet.replaceSync(text);
        document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
      }, rules);
    }
    const sceneShown = await page.evaluate('document.querySelector("#scene") !== null');
    await new Promise((resolve) => setTimeout(resolve, WARMUP_SECONDS * 1000));

    // 5. Measure: frame deltas in the page, the requests it sent.
    const snapshot = await page.evaluate(`(() => {
      const key = Object.keys(localStorage).find((k) => k.startsWith('holdbay/tasks/'));
      const board = JSON.parse(localStorage.getItem(key) ?? '[]');
      const live = board.filter((t) => !['completed', 'failed', 'cancelled'].includes(t.tracker.status));
      const interval = (t) => (t.tracker.pushed ? 60000 : t.tracker.pollIntervalMs ?? 1000);
      return {
        live: live.length,
        // While a listen stream pushes a task, the engine polls it only every 60 s.
        intervals: live.map(interval),
        tasks: live.map((t) => ({ id: t.tracker.taskId, interval: interval(t), nextPollAt: t.tracker.nextPollAtMs })),
        pushed: live.filter((t) => t.tracker.pushed).length,
        statuses: live.reduce((all, t) => ({ ...all, [t.tracker.status]: (all[t.tracker.status] ?? 0) + 1 }), {}),
      };
    })()`);
    // --profile FILE: a CPU profile of the window, summarised by self time.
    if (PROFILE) {
      await page.send('Profiler.enable');
      await page.send('Profiler.setSamplingInterval', { interval: 500 });
      await page.send('Profiler.start');
    }
    // --trace: a Chrome trace of the window, summarised by the main thread's events.
    const tracing = process.argv.includes('--trace');
    const traceEvents = [];
    let traceDone = null;
    if (tracing) {
      page.on('Tracing.dataCollected', ({ value }) => traceEvents.push(...value));
      traceDone = new Promise((resolve) => page.on('Tracing.tracingComplete', resolve));
      await page.send('Tracing.start', { categories: 'devtools.timeline,disabled-by-default-devtools.timeline', transferMode: 'ReportEvents' });
    }
    // --mutations: count DOM mutations in the window by the part of the page they touch
    // (the nearest ancestor with an id), and how many frames saw any (what makes a frame draw).
    const MUTATIONS = process.argv.includes('--mutations');
    const frames = await page.call(({ seconds, countMutations }) => new Promise((resolve) => {
      const mutations = { byPart: {}, framesWithAny: 0 };
      let mutatedThisFrame = false;
      const mutationObserver = countMutations ? new MutationObserver((records) => {
        mutatedThisFrame = true;
        for (const record of records) {
          let node = record.target.nodeType === 1 ? record.target : record.target.parentElement;
          const path = [];
          while (node && path.length < 3) {
            if (node.id) path.unshift(`#${node.id}`);
            else if (node.classList?.length && path.length === 0) path.unshift(`.${node.classList[0]}`);
            node = node.parentElement;
            if (path.length && path[0].startsWith('#')) break;
          }
          const key = `${path.join(' ')} ${record.type}${record.attributeName ? `:${record.attributeName}` : ''}`;
          mutations.byPart[key] = (mutations.byPart[key] ?? 0) + 1;
        }
      }) : null;
      mutationObserver?.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
      const deltas = [];
      let last = null;
      const started = performance.now();
      const startedAtMs = performance.timeOrigin + started;
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
        if (mutatedThisFrame) mutations.framesWithAny += 1;
        mutatedThisFrame = false;
        if (last !== null) deltas.push(at - last);
        last = at;
        if (at - started < seconds * 1000) requestAnimationFrame(step);
        else {
          observer.disconnect();
          mutationObserver?.disconnect();
          resolve({ deltas, windowMs: at - started, startedAtMs, endedAtMs: performance.timeOrigin + at, loaf, mutations });
        }
      };
      requestAnimationFrame(step);
    }), { seconds: SECONDS, countMutations: MUTATIONS });
    if (MUTATIONS) {
      const top = Object.entries(frames.mutations.byPart).sort((a, b) => b[1] - a[1]).slice(0, 25);
      process.stdout.write(`frames with DOM mutations: ${frames.mutations.framesWithAny} of ${frames.deltas.length}\n`
        + top.map(([part, n]) => `${String(n).padStart(7)} ${part}`).join('\n') + '\n');
    }
    if (tracing) {
      await page.send('Tracing.end');
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
    if (PROFILE) {
      const { profile: cpu } = await page.send('Profiler.stop');
      writeFileSync(PROFILE, JSON.stringify(cpu));
      const self = new Map();
      const byId = new Map(cpu.nodes.map((node) => [node.id, node]));
      const counts = new Map();
      for (const sample of cpu.samples) counts.set(sample, (counts.get(sample) ?? 0) + 1);
      for (const [id, count] of counts) {
        const frame = byId.get(id).callFrame;
        const name = `${frame.functionName || '(anonymous)'} ${frame.url.split('/').pop()}:${frame.lineNumber}`;
        self.set(name, (self.get(name) ?? 0) + count);
      }
      const total = cpu.samples.length;
      const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 40);
      process.stdout.write(top.map(([name, count]) => `${(100 * count / total).toFixed(1)}% ${name}`).join('\n') + '\n');
    }

    // Expected: each live task may be polled once per its pollIntervalMs (engine clamps to
    // 250 ms..60 s; with push it polls every 60 s instead).
    const windowMs = frames.windowMs;
    const clamp = (ms) => Math.min(60000, Math.max(250, ms));
    const expected = snapshot.intervals.reduce((sum, ms) => sum + windowMs / clamp(ms), 0);
    const sorted = [...frames.deltas].sort((a, b) => a - b);
    const timeliness = await pollTimeliness(page, frames, snapshot);
    const shot = option('screenshot', null);
    // --color-scheme dark: the screenshot in the dark theme.
    const scheme = option('color-scheme', null);
    if (shot && scheme) {
      await page.send('Emulation.setEmulatedMedia', { features: [{ name: 'prefers-color-scheme', value: scheme }] });
      await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
    }
    if (shot) writeFileSync(shot, await page.screenshot());
    // What keeps animating (each one may make every frame draw): by element and animation.
    const animations = await page.evaluate(`(() => {
      const by = {};
      for (const animation of document.getAnimations()) {
        const target = animation.effect?.target;
        const name = (target?.tagName?.toLowerCase() ?? '?') + '.' + (target?.classList?.[0] ?? '') + ' ' + (animation.animationName ?? '');
        by[name] = (by[name] ?? 0) + 1;
      }
      return by;
    })()`);
    const counts = await page.evaluate(`({
      dom: document.getElementsByTagName('*').length,
      rows: document.querySelectorAll('#tasks-panel .task-row').length,
      wire: document.querySelectorAll('#wire-log .wire-entry').length,
      cartridges: document.querySelectorAll('#scene .cartridge').length,
      tasksNote: document.querySelector('#tasks-panel .task-more')?.textContent ?? null,
      wireNote: document.querySelector('#wire-log .wire-undrawn')?.textContent ?? null,
    })`);
    report = {
      when: new Date().toISOString(),
      machine: { cpus: cpus().length, cpu: cpus()[0]?.model, loadAverageAfter: loadavg().map((l) => Number(l.toFixed(2))) },
      driver: 'raw DevTools pipe (no Playwright while measuring)',
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
      pollIntervalMs: POLL_INTERVAL_MS,
      timeliness,
      requests: {
        tasksGet: timeliness.sentInWindow,
        otherPosts: timeliness.othersInWindow,
        expectedTasksGet: Math.round(expected),
        ratio: expected > 0 ? timeliness.sentInWindow / expected : null,
      },
      page: counts,
      animations,
      errors: [...setupErrors, ...page.errors],
    };
  } finally {
    await chrome.close();
  }
} finally {
  holdbay.stop();
  rmSync(profile, { recursive: true, force: true });
}

mkdirSync(join(OUT, '..'), { recursive: true });
writeFileSync(OUT, `${JSON.stringify(report, null, 2)}\n`);
const f = (ms) => (ms === null ? 'n/a' : `${ms.toFixed(1)} ms`);
function timelinessLine(t) {
  const share = (n) => (t.gaps ? `${((100 * n) / t.gaps).toFixed(1)} %` : 'n/a');
  return `poll timeliness (${t.tasks} tasks, ${t.tasksPolledInWindow} polled again in the window): ${t.sentInWindow} tasks/get sent in the window; `
    + `${t.gaps} gaps: observed interval p50 ${t.intervalMs.p50} ms, p95 ${t.intervalMs.p95} ms (min ${t.intervalMs.min}, max ${t.intervalMs.max}); lateness p50 ${t.latenessMs.p50} ms, p95 ${t.latenessMs.p95} ms, p99 ${t.latenessMs.p99} ms, max ${t.latenessMs.max} ms (min ${t.latenessMs.min} ms, ${t.early} early); `
    + `within 100 ms ${share(t.within100ms)}, 250 ms ${share(t.within250ms)}, 1 s ${share(t.within1s)}; `
    + `overdue at the end ${t.overdueAtEnd} (p50 ${t.overdueAtEndMs.p50} ms, max ${t.overdueAtEndMs.max} ms); `
    + `response waits p50 ${t.responseWaitMs.p50} ms, p95 ${t.responseWaitMs.p95} ms`;
}
process.stdout.write([
  `magazine benchmark: ${report.tasks.stored} tasks (${report.tasks.liveAtStart} live), mode ${report.mode}, view ${report.view}, ${(report.windowMs / 1000).toFixed(1)} s window`,
  `frames: ${report.frames.count}, p50 ${f(report.frames.p50)}, p95 ${f(report.frames.p95)}, p99 ${f(report.frames.p99)}, max ${f(report.frames.max)}; over 16.7 ms: ${report.frames.over16_7}, missed a refresh (> 25 ms): ${report.frames.missed}, over 50 ms: ${report.frames.over50}`,
  `tasks/get sent ${report.requests.tasksGet} vs expected Σ(window/pollInterval) ${report.requests.expectedTasksGet} (ratio ${report.requests.ratio?.toFixed(3)}); other POSTs ${report.requests.otherPosts}`,
  timelinessLine(report.timeliness),
  `long animation frames: ${report.longFrames.count}, ${report.longFrames.duration} ms in all: script ${report.longFrames.script} ms (forced layout ${report.longFrames.forcedLayout} ms), rendering ${report.longFrames.render} ms (style+layout ${report.longFrames.styleLayout} ms)`,
  `forced layout by caller: ${Object.entries(report.longFrames.forcedBy).sort((a, b) => b[1] - a[1]).slice(0, 5).map(([by, ms]) => `${by} ${ms} ms`).join('; ') || 'none'}`,
  `load average after (1/5/15 min, ${report.machine.cpus} CPUs): ${report.machine.loadAverageAfter.join(' ')}`,
  `page: ${report.page.dom} elements, ${report.page.rows} task rows, ${report.page.wire} wire rows, ${report.page.cartridges} cartridges; errors: ${report.errors.length}`,
  `written to ${OUT}`,
  '',
].join('\n'));
