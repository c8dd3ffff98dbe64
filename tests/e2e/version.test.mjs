// Protocol versions, end to end: a real 2025-11-25-only server (server-everything
// 2026.8.31) is followed into a 2025-11-25 session (versioning.mdx), or, with
// `?era=2026-07-28`, gets the plain legacy message; a server that refuses the first version
// (`holdbay serve --fixtures reject-first-version`) gets exactly one retry and then works; a
// server with no version in common (`--fixtures no-common-version`) has its list shown. After
// each failed connect nothing keeps saying "Listing…".
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { root, startHoldbay, launchBrowser, screenshot, freePort, clearAppStorage } from './support.mjs';
import { selectTool, fillField, call, shown, answerInput, waitForTaskStatus, askingCardOf } from './ui.mjs';
import { pickPrompt, getPrompt, readResource } from './library.mjs';

const legacyDir = join(root, 'tests', 'peers', 'legacy');
const everything = join(legacyDir, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
const shots = join(root, 'target', 'shots');

let plain;
let browser;

before(async () => {
  plain = await startHoldbay();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  plain?.stop();
});

/** server-everything in its Streamable HTTP mode, held to 127.0.0.1 by the preload. */
async function startLegacyServer(port = undefined) {
  assert.ok(existsSync(everything), `no server-everything in ${legacyDir}: run scripts/install-tools.sh`);
  port ??= await freePort();
  const child = spawn(process.execPath, ['--require', join(legacyDir, 'loopback.cjs'), everything, 'streamableHttp'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise((resolveReady, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`server-everything did not start:\n${output}`)), 30000);
    const onData = (chunk) => {
      output += chunk;
      if (/listening on port/.test(output)) {
        clearTimeout(timer);
        resolveReady();
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`server-everything exited with ${code}:\n${output}`)));
  });
  const exited = new Promise((resolveExit) => child.on('exit', resolveExit));
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    port,
    stop: () => child.kill(),
    /** Stop it and wait until it is gone (its port free again). */
    async stopped() {
      child.kill();
      await exited;
    },
  };
}

/** Every POST the page makes to an MCP endpoint (`/mcp`, a stdio server's `/stdio/NAME`),
 * with its answer, in order. */
function recordMcpPosts(page) {
  const posts = [];
  page.on('requestfinished', async (request) => {
    if (request.method() !== 'POST' || !/\/(mcp|stdio\/[^/?]+)(\?|$)/.test(request.url())) return;
    const entry = { headers: request.headers(), body: JSON.parse(request.postData() ?? 'null') };
    posts.push(entry);
    const response = await request.response();
    entry.status = response?.status();
    entry.answer = await response?.text().then(answerOf).catch(() => null);
  });
  return posts;
}

/** The JSON-RPC answer in a response body: JSON, or the event stream's message that has a
 * result or an error (server-everything answers with a stream). */
function answerOf(text) {
  try {
    return JSON.parse(text);
  } catch {
    const messages = text.split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => { try { return JSON.parse(line.slice(5)); } catch { return null; } });
    return messages.find((message) => message && ('result' in message || 'error' in message)) ?? null;
  }
}

/** Open `url` in a new page that records its MCP POSTs and its page errors from the start,
 * with nothing kept from an earlier test (a kept wire log would list its exchanges too). */
async function openRecorded(url) {
  const { page: cleaner } = await clearAppStorage(browser.context, new URL(url).origin);
  await cleaner.close();
  const page = await browser.context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    // The browser's own line for a 4xx answer is expected here.
    if (message.type() === 'error' && !/Failed to load resource/.test(message.text())) {
      errors.push(`console: ${message.text()}`);
    }
  });
  const posts = recordMcpPosts(page);
  await page.goto(url);
  return { page, errors, posts };
}

/** Wait (10 s at most) until a POST among `posts` that `matches` has its answer. */
async function settled(posts, matches) {
  const deadline = Date.now() + 10000;
  while (!posts.some((post) => matches(post) && 'status' in post) && Date.now() < deadline) {
    await new Promise((soon) => setTimeout(soon, 100));
  }
}

/** The discover POSTs among `posts`, once `expected` of them are recorded and every recorded
 * answer has been read (or after 5 s): Playwright reports a finished request a little after the
 * page has used its answer. */
async function discoversOf(posts, expected) {
  return requestsOf(posts, (post) => post.body?.method === 'server/discover', expected);
}

/** The POSTs among `posts` that `matches`, once `expected` of them are recorded and every
 * recorded one has its answer (or as many as there are after 15 s). */
async function requestsOf(posts, matches, expected) {
  const found = () => posts.filter(matches);
  const settled = () => found().length >= expected && posts.every((post) => 'answer' in post);
  for (let waited = 0; !settled() && waited < 15000; waited += 50) {
    await new Promise((resolveLater) => setTimeout(resolveLater, 50));
  }
  return found();
}

/** Rows of `method` in the wire log, once it lists `expected` of them (a busy log redraws
 * calmly, at most every 300 ms: src/ui/wire_log/mod.rs `CALM_REDRAW_MS`), or as many as it
 * lists after 10 s. */
async function wireRows(page, method, expected) {
  await page.waitForFunction(
    ([name, count]) => [...document.querySelectorAll('.wire-method')]
      .filter((row) => row.textContent === name).length === count,
    [method, expected], { timeout: 10000 },
  ).catch(() => {});
  return page.locator('.wire-method', { hasText: new RegExp(`^${method}$`) }).count();
}

/** No tab of the catalog still says "Listing…", and each says why nothing is listed. */
async function assertNothingListing(page) {
  for (const tab of ['#tab-tools', '#tab-prompts', '#tab-resources']) {
    await page.click(tab);
    const panel = page.locator('.catalog .tab-panel');
    await panel.locator('.error-notice').first().waitFor({ timeout: 10000 });
    const text = await panel.textContent();
    assert.doesNotMatch(text, /Listing/, `${tab}: ${text}`);
  }
  await page.click('#tab-tools');
  assert.equal(await page.locator('.pending').count(), 0, 'nothing is pending');
}

/** The notice's words, and screenshots in the light and the dark scheme. */
async function shoot(page, name, { keepScroll = false } = {}) {
  mkdirSync(shots, { recursive: true });
  if (!keepScroll) {
    await page.evaluate(() => document.querySelectorAll('.column').forEach((column) => column.scrollTo(0, 0)));
  }
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: join(shots, `${name}-${scheme}.png`) });
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await screenshot(page, name);
}

test('a 2025-11-25 server is followed into a legacy session: initialize, its tools, a call', async () => {
  const legacy = await startLegacyServer();
  try {
    const { page, errors, posts } = await openRecorded(`${plain.url}/?server=${encodeURIComponent(legacy.url)}`);
    const era = await shown(page, '#era-chip');
    assert.equal((await era.textContent()).trim(), 'legacy');
    await page.click('#discover-panel summary');
    const why = await (await shown(page, '#era-note')).textContent();
    assert.match(why, /answered a 2026-07-28 request with HTTP 400 without a 2026-07-28 error/);
    assert.match(why, /opens a 2025-11-25 session with initialize/);
    assert.equal(await page.locator('#supported-versions').textContent(), '2025-11-25');

    await selectTool(page, 'echo');
    await fillField(page.locator('#call-panel'), 'message', 'from the old era');
    await call(page);
    const echoed = await shown(page, '#call-panel .call-result .content-text');
    assert.equal(await echoed.textContent(), 'Echo: from the old era');

    // The server asks on the call's open stream; the same form card answers it.
    await selectTool(page, 'trigger-elicitation-request');
    await call(page);
    const card = await shown(page, '#call-panel .server-asks .input-request');
    await shoot(page, '59-version-legacy-asks', { keepScroll: true });
    await fillField(card, 'name', 'Ada Lovelace');
    await answerInput(card, 'accept');
    const answered = await shown(page, '#call-panel .call-result');
    const said = await answered.textContent();
    assert.match(said, /User provided the requested information/);
    assert.match(said, /- Name: Ada Lovelace/);
    await shoot(page, '59-version-legacy-session');

    // One modern request, refused; then the handshake, and every later request in the session.
    const methods = posts.map((post) => post.body?.method ?? null);
    const discover = posts.find((post) => post.body?.method === 'server/discover');
    assert.equal(discover.status, 400);
    const initialize = posts.find((post) => post.body?.method === 'initialize');
    assert.ok(initialize, `no initialize in ${methods}`);
    assert.equal(initialize.body.params.protocolVersion, '2025-11-25');
    assert.equal(initialize.headers['mcp-protocol-version'], undefined);
    const session = posts.find((post) => post.body?.method === 'notifications/initialized');
    assert.ok(session, `no notifications/initialized in ${methods}`);
    assert.equal(session.status, 202);
    const sessionId = session.headers['mcp-session-id'];
    assert.ok(sessionId, 'the session is sent back');
    const answer = posts.find((post) => post.body?.result?.action === 'accept');
    assert.ok(answer, 'the answer went in a POST of its own');
    assert.equal(answer.status, 202);
    assert.equal(answer.headers['mcp-session-id'], sessionId);
    assert.equal(answer.body.result.content.name, 'Ada Lovelace');
    const echo = posts.find((post) => post.body?.method === 'tools/call');
    assert.equal(echo.headers['mcp-session-id'], sessionId);
    assert.equal(echo.headers['mcp-protocol-version'], '2025-11-25');
    assert.equal(echo.headers['mcp-method'], undefined, 'no 2026-07-28 routing headers');
    assert.deepEqual(Object.keys(echo.body.params._meta ?? {}), ['progressToken'], 'no 2026-07-28 envelope');
    assert.equal(await wireRows(page, 'initialize', 1), 1);
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    legacy.stop();
  }
});

test('a legacy call shows the progress the server sends on the session\'s own stream, and Stop sends notifications/cancelled', async () => {
  const legacy = await startLegacyServer();
  try {
    const { page, errors, posts } = await openRecorded(`${plain.url}/?server=${encodeURIComponent(legacy.url)}`);
    // The stopped call never finishes: its request is seen as it leaves.
    const gets = [];
    const calls = [];
    page.on('request', (request) => {
      if (!/\/mcp(\?|$)/.test(request.url())) return;
      if (request.method() === 'GET') gets.push(request.headers());
      const body = JSON.parse(request.postData() ?? 'null');
      if (body?.method === 'tools/call') calls.push({ body, headers: request.headers() });
    });
    await shown(page, '#era-chip');
    await selectTool(page, 'trigger-long-running-operation');
    const form = page.locator('#call-panel');
    await fillField(form, 'duration', '30');
    await fillField(form, 'steps', '30');
    await call(page);
    // server-everything sends progress outside the call's stream: on the session's GET stream.
    const amount = await shown(page, '#call-panel .progress-amount');
    await page.waitForFunction(() => /of 30/.test(document.querySelector('#call-panel .progress-amount')?.textContent ?? ''));
    assert.match(await amount.textContent(), /^\d+ of 30$/);
    assert.ok(gets.some((headers) => headers['mcp-session-id'] && /event-stream/.test(headers.accept ?? '')),
      'the session stream was opened with the session');
    await page.click('#call-panel button.stop');
    await shown(page, '#call-panel .call-stopped');
    await settled(posts, (post) => post.body?.method === 'notifications/cancelled');
    const cancelled = posts.find((post) => post.body?.method === 'notifications/cancelled');
    assert.ok(cancelled, `no notifications/cancelled in ${posts.map((post) => post.body?.method)}`);
    const stopped = calls.at(-1);
    assert.equal(cancelled.body.params.requestId, stopped.body.id);
    assert.equal(cancelled.body.params.reason, 'the user pressed Stop');
    assert.equal(cancelled.status, 202);
    assert.equal(cancelled.headers['mcp-session-id'], stopped.headers['mcp-session-id']);
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    legacy.stop();
  }
});

test('a 2025-11-25 task: params.task, tasks/get polls, the question on tasks/result\'s stream, the result; and a cancel', async () => {
  const legacy = await startLegacyServer();
  try {
    const { page, errors, posts } = await openRecorded(`${plain.url}/?server=${encodeURIComponent(legacy.url)}`);
    await shown(page, '#era-chip');
    // server-everything's simulate-research-query requires a task, and asks for a
    // clarification when the topic is ambiguous (its tools/simulate-research-query.js).
    await selectTool(page, 'simulate-research-query');
    const form = page.locator('#call-panel');
    await fillField(form, 'topic', 'rust');
    await fillField(form, 'ambiguous', 'true');
    await page.locator('#call-panel input.accept-task').check();
    await call(page);
    const task = await waitForTaskStatus(page, 'simulate-research-query', 'input_required');
    const card = await shown(await askingCardOf(page, task), '.input-request');
    await shoot(page, '60-version-legacy-task-asks', { keepScroll: true });
    await fillField(card, 'interpretation', 'technical');
    await answerInput(card, 'accept');
    const done = await waitForTaskStatus(page, 'simulate-research-query', 'completed');
    assert.match(await done.locator('.task-result').textContent(), /Research Report: rust \(technical\)/);
    await shoot(page, '60-version-legacy-task-done', { keepScroll: true });

    const created = posts.find((post) => post.body?.method === 'tools/call');
    assert.deepEqual(created.body.params.task, {}, 'asked for a task the 2025-11-25 way');
    assert.deepEqual(Object.keys(created.body.params._meta ?? {}), ['progressToken'], 'no 2026-07-28 extension declared');
    const taskId = created.answer?.result?.task?.taskId;
    assert.ok(taskId, `a CreateTaskResult: ${JSON.stringify(created.answer)}`);
    const polls = posts.filter((post) => post.body?.method === 'tasks/get');
    assert.ok(polls.length >= 1, 'polled with tasks/get');
    assert.ok(polls.every((poll) => poll.body.params.taskId === taskId));
    assert.ok(polls.every((poll) => poll.answer?.result?.pollInterval === 1000), 'read in 2025-11-25\'s shape');
    const fetches = await requestsOf(posts, (post) => post.body?.method === 'tasks/result', 1);
    assert.ok(fetches.length >= 1, 'its question and its result came by tasks/result');
    assert.equal(fetches[0].body.params.taskId, taskId);
    const answer = posts.find((post) => post.body?.result?.action === 'accept');
    assert.ok(answer, 'the answer went in a POST of its own');
    assert.equal(answer.status, 202);
    assert.equal(answer.body.result.content.interpretation, 'technical');
    assert.equal(posts.filter((post) => post.body?.method === 'tasks/update').length, 0, 'no 2026-07-28 tasks/update');

    // A second one, cancelled while it works: 2025-11-25's tasks/cancel, and the row ends so.
    await fillField(form, 'ambiguous', 'false');
    await call(page);
    const working = await shown(page, `.task-row[data-status="working"]:has-text("simulate-research-query")`);
    await working.locator('.task-cancel').click();
    await waitForTaskStatus(page, 'simulate-research-query', 'cancelled');
    const cancels = await requestsOf(posts, (post) => post.body?.method === 'tasks/cancel', 1);
    assert.equal(cancels[0].status, 200);
    assert.equal(cancels[0].answer?.result?.status, 'cancelled');
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    legacy.stop();
  }
});

test('a restarted 2025-11-25 server: the next call opens a new session, goes again in it, and the finding says why', async () => {
  let legacy = await startLegacyServer();
  try {
    const { page, errors, posts } = await openRecorded(`${plain.url}/?server=${encodeURIComponent(legacy.url)}`);
    await shown(page, '#era-chip');
    await selectTool(page, 'echo');
    await fillField(page.locator('#call-panel'), 'message', 'before');
    await call(page);
    assert.equal(await (await shown(page, '#call-panel .call-result .content-text')).textContent(), 'Echo: before');

    await legacy.stopped();
    legacy = await startLegacyServer(legacy.port);
    await fillField(page.locator('#call-panel'), 'message', 'after');
    await call(page);
    await page.waitForFunction(() => document.querySelector('#call-panel .call-result .content-text')?.textContent === 'Echo: after');

    const initializes = posts.filter((post) => post.body?.method === 'initialize');
    assert.equal(initializes.length, 2, 'a second initialize for the new session');
    const calls = await requestsOf(posts, (post) => post.body?.method === 'tools/call', 3);
    assert.equal(calls.length, 3, 'the call, the refused one, and the same again in the new session');
    assert.equal(calls[1].status, 400);
    assert.equal(calls[2].body.id, calls[1].body.id, 'the same request');
    assert.notEqual(calls[2].headers['mcp-session-id'], calls[1].headers['mcp-session-id']);
    assert.equal(calls[2].status, 200);
    await page.click('#dock-tab-findings');
    await shown(page, 'text=/refused session .* with HTTP 400/');
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    legacy.stop();
  }
});

test('a 2025-11-25 stdio server through holdbay serve --stdio: tools, a call, an elicitation, a resource, a prompt, progress and Stop', async () => {
  assert.ok(existsSync(everything), `no server-everything in ${legacyDir}: run scripts/install-tools.sh`);
  const bridge = await startHoldbay(['--stdio', `everything='${process.execPath}' '${everything}' stdio`]);
  try {
    const { page, errors, posts } = await openRecorded(`${bridge.url}/?server=${encodeURIComponent(`${bridge.url}/stdio/everything`)}`);
    assert.equal((await (await shown(page, '#era-chip')).textContent()).trim(), 'legacy');
    await selectTool(page, 'echo');
    await fillField(page.locator('#call-panel'), 'message', 'over stdio');
    await call(page);
    assert.equal(await (await shown(page, '#call-panel .call-result .content-text')).textContent(), 'Echo: over stdio');

    await selectTool(page, 'trigger-elicitation-request');
    await call(page);
    const card = await shown(page, '.server-asks .input-request');
    await fillField(card, 'name', 'Grace Hopper');
    await answerInput(card, 'accept');
    assert.match(await (await shown(page, '#call-panel .call-result')).textContent(), /- Name: Grace Hopper/);

    const reader = await readResource(page, 'demo://resource/static/document/features.md');
    assert.match(await (await shown(reader, '.read-result')).textContent(), /\S/);
    await pickPrompt(page, 'simple-prompt');
    await getPrompt(page);
    await shown(page, '#prompt-panel .prompt-result');

    await page.click('#tab-tools');
    await selectTool(page, 'trigger-long-running-operation');
    await fillField(page.locator('#call-panel'), 'duration', '30');
    await fillField(page.locator('#call-panel'), 'steps', '30');
    await call(page);
    await page.waitForFunction(() => /^\d+ of 30$/.test(document.querySelector('#call-panel .progress-amount')?.textContent ?? ''));
    await page.click('#call-panel button.stop');
    await shown(page, '#call-panel .call-stopped');
    await settled(posts, (post) => post.body?.method === 'notifications/cancelled');
    const cancelled = posts.find((post) => post.body?.method === 'notifications/cancelled');
    assert.equal(cancelled?.status, 202, 'the bridge took the cancellation');
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    bridge.stop();
  }
});

test('holdbay serve\'s own 2025-11-25 endpoint books a table by asking on the call\'s open stream', async () => {
  const { page, errors, posts } = await openRecorded(`${plain.url}/?server=${encodeURIComponent(`${plain.url}/legacy/mcp`)}`);
  assert.equal((await (await shown(page, '#era-chip')).textContent()).trim(), 'legacy');
  await selectTool(page, 'book_table');
  await call(page);
  const card = await shown(page, '#call-panel .server-asks .input-request');
  await fillField(card, 'size', '6');
  await fillField(card, 'time', '19:30');
  await answerInput(card, 'accept');
  const said = await (await shown(page, '#call-panel .call-result')).textContent();
  assert.match(said, /Booked a table for 6 at 19:30 at Chez Holdbay/);
  const answer = posts.find((post) => post.body?.result?.action === 'accept');
  assert.equal(answer?.status, 202, 'the answer went in a POST of its own');
  await shoot(page, '62-version-legacy-demo');
  assert.deepEqual(errors, []);
  await page.close();
});

test('with ?era=2026-07-28 a 2025-11-25 server gets the plain legacy message, and no tab keeps listing', async () => {
  const legacy = await startLegacyServer();
  try {
    const { page, errors, posts } = await openRecorded(`${plain.url}/?server=${encodeURIComponent(legacy.url)}&era=2026-07-28`);
    const notice = page.locator('#version-notice[data-kind="legacy"]');
    await notice.waitFor({ timeout: 20000 });
    const said = await notice.textContent();
    assert.match(said, /This server speaks an older MCP revision/);
    assert.match(said, /MCP 2025-11-25 or earlier/);
    assert.match(said, /Holdbay speaks MCP 2026-07-28/);
    assert.match(said, /upgrade the server, or the MCP SDK it is built on/);
    assert.match(said, /client for the older revision/);
    // The server's own words are a symptom; the page does not present them as the cause.
    const column = await page.locator('.server-column').textContent();
    assert.doesNotMatch(column, /not initialized/i);
    await assertNothingListing(page);
    await shoot(page, '60-version-legacy');
    // One modern request, answered 400 -32000 by the legacy server; nothing is retried.
    const sent = await discoversOf(posts, 1);
    assert.equal(sent.length, 1);
    assert.equal(sent[0].status, 400);
    assert.equal(sent[0].answer?.error?.code, -32000);
    assert.equal(await wireRows(page, 'server/discover', 1), 1);

    // The same server, with 2025-11-25 chosen under Headers and limits: a legacy session
    // from the start, the choice in the address (and kept for this server).
    await page.click('.toggle-headers');
    assert.equal(await page.locator('#era-choice').inputValue(), '2026-07-28');
    await page.selectOption('#era-choice', '2025-11-25');
    const before = posts.length;
    await page.click('#connect');
    assert.equal((await (await shown(page, '#era-chip')).textContent()).trim(), 'legacy');
    assert.equal(new URL(page.url()).searchParams.get('era'), '2025-11-25');
    assert.equal(posts[before]?.body?.method, 'initialize', 'no 2026-07-28 request first');
    await page.goto(`${plain.url}/?server=${encodeURIComponent(legacy.url)}`);
    assert.equal((await (await shown(page, '#era-chip')).textContent()).trim(), 'legacy', 'kept for this server');
    await page.click('.toggle-headers');
    assert.equal(await page.locator('#era-choice').inputValue(), '2025-11-25');
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    legacy.stop();
  }
});

test('a server that refuses the first version gets exactly one retry, then works', async () => {
  const server = await startHoldbay(['--fixtures', 'reject-first-version']);
  try {
    const { page, errors, posts } = await openRecorded(`${server.url}/`);
    await page.waitForSelector('.select-tool', { timeout: 20000 });
    await page.waitForFunction(() => !document.querySelector('.pending'), null, { timeout: 20000 });

    // server/discover and the first tools/list go out together: the fixture refuses
    // whichever reaches it first, and that method is the one retried.
    await requestsOf(posts, (post) => post.answer?.error?.code === -32022, 1);
    const refused = posts.find((post) => post.answer?.error?.code === -32022);
    const method = refused.body.method;
    const sent = await requestsOf(posts, (post) => post.body?.method === method, 2);
    assert.equal(sent.length, 2, `one ${method} and exactly one retry`);
    const [first, retry] = sent;
    assert.equal(first, refused);
    assert.equal(first.status, 400);
    assert.deepEqual(first.answer?.error?.data?.supported, ['2026-07-28']);
    assert.equal(retry.status, 200);
    assert.notEqual(retry.body.id, first.body.id, 'the retry is a new request');
    const supported = first.answer.error.data.supported;
    assert.ok(supported.includes(retry.headers['mcp-protocol-version']));
    assert.equal(retry.body.params._meta['io.modelcontextprotocol/protocolVersion'], retry.headers['mcp-protocol-version']);
    // Every later request keeps the negotiated version, and only one was ever refused.
    for (const post of posts.slice(posts.indexOf(retry))) {
      assert.equal(post.headers['mcp-protocol-version'], '2026-07-28');
    }
    assert.equal(posts.filter((post) => post.answer?.error?.code === -32022).length, 1);
    // The wire log shows both exchanges.
    assert.equal(await wireRows(page, method, 2), 2);
    assert.ok(await page.locator('.tool-name').count() > 0, 'the tools are listed');
    await shoot(page, '62-version-retry');
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    server.stop();
  }
});

test('a server with no version in common has its supported list shown', async () => {
  const server = await startHoldbay(['--fixtures', 'no-common-version']);
  try {
    const { page, errors, posts } = await openRecorded(`${server.url}/`);
    const notice = page.locator('#version-notice[data-kind="no-common-version"]');
    await notice.waitFor({ timeout: 20000 });
    const said = await notice.textContent();
    assert.match(said, /No protocol version in common/);
    const listed = await page.locator('#server-supported-versions .chip').allTextContents();
    assert.deepEqual(listed, ['2025-06-18', '2025-11-25']);
    assert.deepEqual(await page.locator('#client-versions .chip').allTextContents(), ['2026-07-28']);
    await assertNothingListing(page);
    await shoot(page, '61-version-no-common');
    // No common version: no retry.
    assert.equal((await discoversOf(posts, 1)).length, 1);
    assert.equal(await wireRows(page, 'server/discover', 1), 1);
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    server.stop();
  }
});
