// A server that misbehaves on purpose (tests/e2e/hostile/server.mjs): each misbehaviour ends
// its call with a clear error, the page survives it, and the next call still works. Then
// what a server controls the count of (inputs, notifications, bodies past the limit), with
// the page's memory read before and after: the wasm memory's size (which never shrinks) and
// the heap in use (which says whether what was taken came back).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHoldbay, launchBrowser, openPage, clearAppStorage, screenshot } from './support.mjs';
import { call, fillField, selectTool, shown } from './ui.mjs';
import { startHostile } from './hostile/server.mjs';

const MiB = 1024 * 1024;
/** Seconds: short, so `hang` and `endless_sse` end within the test. */
const REQUEST_DEADLINE = 3;

// What each case must end with: the call panel's error text, or (`result`) the result text.
const EXPECTED = {
  malformed_json: { error: /not valid JSON: EOF while parsing/ },
  wrong_id: { error: /answers request \d+, but request \d+ was sent/ },
  oversized: { error: /larger than the limit of 8388608 bytes/ },
  endless_body: { error: /larger than the limit of 8388608 bytes/ },
  unknown_result_type: { error: /resultType "mystery", which is not valid for tools\/call/ },
  unasked_task: { error: /resultType "task", which is not valid for tools\/call/ },
  garbage_sse: { error: /not valid JSON: in an event/ },
  sse_without_response: { error: /event stream ended without a response to request/ },
  html_500: { error: /HTTP 500 Internal Server Error: <html>/ },
  // A Bearer challenge waits for a sign-in: "Not now" ends the call with the refusal.
  unauthorized: { error: /requires authorization \(HTTP 401.*Bearer realm="hostile"/, signIn: true },
  hang: { error: new RegExp(`within ${REQUEST_DEADLINE} s: the request deadline`) },
  endless_sse: { error: new RegExp(`within ${REQUEST_DEADLINE} s: the request deadline`) },
  deep_json: { error: /recursion limit/ },
  big_number: { result: 'a big number', also: /number-out-of-range[\s\S]*\(1e400\)/ },
  not_json_rpc: { error: /not a JSON-RPC response/ },
  wrong_content_type: { error: /Content-Type "text\/plain"/ },
  error_without_message: { error: /not a JSON-RPC response: malformed error object/ },
  huge_error_message: { error: /error -32000: E{100}/ },
  xss_text: { result: '<img src=x onerror="window.__xss=1"><script>window.__xss=1</script>' },
  many_inputs: { error: /^Refused: the answer is over one of the client's bounds\s+The server asked for 10,000 inputs at once: over the bound of 64 \(Limits::max_input_requests\), so the answer was refused and no input was shown/i },
  progress_flood: { result: 'After 50000 progress notifications.' },
  gzip_bomb: { error: /larger than the limit of 8388608 bytes/ },
  long_sse_line: { error: /larger than the limit of 8388608 bytes/ },
  json_as_event_stream: { error: /^Protocol error: the server's answer breaks the protocol\s+the server labelled its answer Content-Type "text\/event-stream", but the body is JSON \(it starts with "\{\\"jsonrpc\\":\\""\): the Content-Type contradicts the body/i },
  long_task_id: { tasks: true, error: /^Refused: the server's task cannot be followed\s+the server made the call task "T{40}…" whose taskId is 102,400 bytes: over the bound of 1,024 bytes on ids \(Limits::max_id_bytes\), so it was refused\. It could not be cancelled: tasks\/cancel not sent: its headers would be [\d,]+ bytes \(Mcp-Name alone 102,4\d\d bytes\), over the 8,192 bytes servers accept/i },
  ...Object.fromEntries(['task_negative_poll', 'task_huge_poll', 'task_string_poll', 'task_negative_ttl'].map((name) => [name, {
    tasks: true,
    cancelled: `malformed-${name}`,
    error: new RegExp(`^Refused: the server's task cannot be followed\\s+the server made the call task "malformed-${name}", but the task does not match the tasks extension's schema \\(.+\\), so it was refused\\. Holdbay asked the server to cancel it \\(tasks/cancel\\), and the server acknowledged\\.`, 'i'),
  }])),
};

let holdbay;
let browser;
let hostile;
before(async () => {
  holdbay = await startHoldbay();
  browser = await launchBrowser();
  hostile = await startHostile();
});
after(async () => {
  await browser?.close();
  holdbay?.stop();
  hostile?.stop();
});

/** The app connected to the hostile server, with a short request deadline. */
async function openHostile({ headers = [] } = {}) {
  await browser.context.addInitScript(() => {
    addEventListener('TrunkApplicationStarted', (event) => { window.__holdbayWasm = event.detail.wasm; });
  });
  // Nothing kept from the tests before: the wire log they left would be restored, and its
  // decoding and trimming would move the heap readings by megabytes while a test measures.
  const opened = await clearAppStorage(browser.context, holdbay.url);
  const { page } = opened;
  await page.goto(`${holdbay.url}/?server=${encodeURIComponent(hostile.url)}`);
  await page.waitForSelector('.select-tool', { timeout: 15000 });
  await page.click('.toggle-headers');
  await page.fill('#request-deadline', String(REQUEST_DEADLINE));
  for (const [index, { name, value, secret }] of headers.entries()) {
    await page.click('.add-header');
    await page.locator('.header-name').nth(index).fill(name);
    await page.locator('.header-value').nth(index).fill(value);
    if (!secret) await page.locator('.header-secret input').nth(index).uncheck();
  }
  await page.click('#connect');
  await page.waitForSelector('.select-tool', { timeout: 15000 });
  // Closed again, as after typing: the open editor (with its sign-in settings) is taller than
  // the room above the dock at 1280×720.
  await page.click('.toggle-headers');
  return opened;
}

/** Call `name` and return the call panel's outcome text once it ends. */
async function outcomeOf(page, name, { tasks = false, signIn = false } = {}) {
  const before = hostile.calls[name] ?? 0;
  await selectTool(page, name);
  // Not declaring the tasks extension: a task in answer is then a task not asked for.
  if (tasks) await page.locator('#call-panel .accept-task').check();
  else await page.locator('#call-panel .accept-task').uncheck();
  await call(page);
  // Once the server has the request, the panel shows this call's progress, not the last one's.
  await waitFor(() => (hostile.calls[name] ?? 0) > before, `${name} reached the server`);
  if (signIn) {
    const card = page.locator('#sign-in');
    await card.locator('button.sign-in-dismiss').waitFor({ timeout: 15000 });
    assert.match(await card.locator('.sign-in-why').innerText(), /401/);
    await card.locator('button.sign-in-dismiss').click();
  }
  await page.waitForSelector('#call-panel .call-error, #call-panel .result-ok', { state: 'attached', timeout: 30000 });
  return (await page.locator('#call-panel .call-outcome').innerText()).trim();
}

async function waitFor(check, what, timeout = 15000) {
  const end = Date.now() + timeout;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

test('every misbehaviour ends its call with a clear error, and the next call succeeds', async () => {
  const { page, errors } = await openHostile({
    headers: [
      { name: 'X-Tenant', value: 'acme-secret', secret: true },
      { name: 'X-Trace', value: 'trace-1', secret: false },
    ],
  });
  for (const [name, expected] of Object.entries(EXPECTED)) {
    const text = await outcomeOf(page, name, expected);
    if (expected.cancelled) {
      assert.ok(hostile.cancels.includes(expected.cancelled), `${name}: tasks/cancel reached the server (${hostile.cancels.join(', ')})`);
    }
    if (expected.error) {
      assert.match(text, expected.error, `${name}: ${text.slice(0, 400)}`);
      assert.ok(text.length < 20_000, `${name}: the error text is bounded (${text.length} chars)`);
    } else {
      assert.ok(text.includes(expected.result), `${name}: ${text.slice(0, 400)}`);
      if (expected.also) assert.match(text, expected.also, name);
    }
    const fine = await outcomeOf(page, 'ok');
    assert.match(fine, /Complete/, `after ${name}, ok: ${fine.slice(0, 200)}`);
    assert.ok((await page.locator('#call-panel').innerText()).includes('All fine.'), `after ${name}`);
  }
  assert.equal(await page.evaluate(() => window.__xss), undefined, 'no server string ran as HTML');
  assert.ok(!hostile.cancels.some((id) => id.length > 1024), 'no tasks/cancel went out with the 100 KB taskId');
  for (const rule of ['too-many-input-requests', 'too-many-notifications', 'id-too-long', 'content-type-mismatch']) {
    await page.click('#dock-tab-findings');
    await page.locator(`#findings-panel .finding[data-rule="${rule}"]`).waitFor({ state: 'attached' });
  }
  await page.click('#dock-tab-wire');
  // The user's headers went out; the log (and so its export) withholds the secret one.
  await page.click('.dock-size');
  await page.locator('.wire-entry[data-method="tools/call"] .wire-summary').last().click();
  const headers = await (await shown(page, '.wire-details .wire-headers')).innerText();
  assert.match(headers, /X-Tenant\s+•••/);
  assert.match(headers, /X-Trace\s+trace-1/);
  assert.ok(!headers.includes('acme-secret'), headers);
  await screenshot(page, '90-hostile-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshot(page, '91-hostile-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  assert.deepEqual(errors, []);
  await page.close();
});

/** The page's wasm memory: its size (the high-water mark) and the heap in use now. */
async function memoryOf(page) {
  return page.evaluate(() => ({
    size: window.__holdbayWasm?.memory?.buffer?.byteLength ?? 0,
    inUse: window.__holdbayWasm?.heapBytesInUse?.() ?? -1,
  }));
}

const mib = (bytes) => (bytes / MiB).toFixed(1);

/** Press Call on the selected tool `name` and wait until the panel shows its end. */
async function callAndSettle(page, name, selector) {
  const before = hostile.calls[name] ?? 0;
  await call(page);
  // Once the server has the request, the panel shows this call's progress, not the last one's.
  await waitFor(() => (hostile.calls[name] ?? 0) > before, `${name} reached the server`);
  await shown(page, selector, { timeout: 30000 });
}

test('300 oversized bodies, gzip bombs and 20 MB lines in turn, each keep no more than an ordinary call does', async () => {
  const { page, errors } = await openHostile();
  const readings = [];
  let settled;
  for (let i = 1; i <= 300; i += 1) {
    const name = i % 2 ? 'gzip_bomb' : 'long_sse_line';
    await selectTool(page, name);
    await callAndSettle(page, name, '#call-panel .call-error');
    if (i === 10) settled = await memoryOf(page);
    if (i % 50 === 0) readings.push(await memoryOf(page));
  }
  const last = await memoryOf(page);
  assert.match(await page.locator('#call-panel .call-error').innerText(), /larger than the limit of 8388608 bytes/);
  console.log(`wasm memory after 10 bodies: ${mib(settled.size)} MiB (heap in use ${mib(settled.inUse)}); after 50..300: ${readings.map((m) => mib(m.size)).join(', ')} MiB (heap in use ${readings.map((m) => mib(m.inUse)).join(', ')})`);
  assert.ok(settled.size > 0 && settled.inUse >= 0, 'the wasm memory and heap were read');
  // Every call stays in the wire log, the history and the timeline: about 18 KB for an
  // ordinary call with a one-line answer (measured), plus the refused body's 4 KiB head.
  // One 64 KiB window kept per body, let alone the body, would be well past this.
  const perBody = (last.inUse - settled.inUse) / 290;
  assert.ok(perBody <= 32 * 1024, `each refused body kept ${(perBody / 1024).toFixed(1)} KiB of heap`);
  // No block of the refused megabytes is left to fragment the heap: the memory grows only
  // as the heap in use does, plus slack.
  const grown = last.size - settled.size;
  assert.ok(grown <= last.inUse - settled.inUse + 8 * MiB, `the memory grew ${mib(grown)} MiB from the 10th to the 300th body`);
  // The wire log says what it kept of each refused body.
  await page.click('#dock-tab-wire');
  const fine = await outcomeOf(page, 'ok');
  assert.match(fine, /Complete/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('10,000 input requests are refused with the bound, and the heap comes back', async () => {
  const { page, errors } = await openHostile();
  await selectTool(page, 'many_inputs');
  await callAndSettle(page, 'many_inputs', '#call-panel .call-error');
  const before = await memoryOf(page);
  for (let i = 0; i < 5; i += 1) await callAndSettle(page, 'many_inputs', '#call-panel .call-error');
  const after = await memoryOf(page);
  const text = await page.locator('#call-panel .call-outcome').innerText();
  assert.match(text, /the server asked for 10,000 inputs at once: over the bound of 64 \(Limits::max_input_requests\)/i);
  assert.equal(await page.locator('.input-card, .input-request').count(), 0, 'no input card was drawn');
  console.log(`10,000 inputs, 5 more times: wasm memory ${mib(before.size)} -> ${mib(after.size)} MiB, heap in use ${mib(before.inUse)} -> ${mib(after.inUse)} MiB`);
  assert.ok(Math.abs(after.inUse - before.inUse) <= 2 * MiB, `the heap in use moved ${mib(after.inUse - before.inUse)} MiB`);
  assert.ok(after.size - before.size <= 2 * MiB, `the memory grew ${mib(after.size - before.size)} MiB`);
  await screenshot(page, '94-hostile-many-inputs');
  assert.deepEqual(errors, []);
  await page.close();
});

test('50,000 progress notifications are counted, a thousand kept, and the memory stays within 8 MiB', async () => {
  const { page, errors } = await openHostile();
  await selectTool(page, 'ok');
  await callAndSettle(page, 'ok', '#call-panel .result-ok');
  const before = await memoryOf(page);
  await selectTool(page, 'progress_flood');
  await callAndSettle(page, 'progress_flood', '#call-panel .result-ok');
  const after = await memoryOf(page);
  assert.ok((await page.locator('#call-panel').innerText()).includes('After 50000 progress notifications.'));
  console.log(`50,000 progress notifications: wasm memory ${mib(before.size)} -> ${mib(after.size)} MiB, heap in use ${mib(before.inUse)} -> ${mib(after.inUse)} MiB`);
  assert.ok(after.size - before.size <= 8 * MiB, `the memory grew ${mib(after.size - before.size)} MiB`);
  assert.ok(after.inUse - before.inUse <= 8 * MiB, `the heap in use grew ${mib(after.inUse - before.inUse)} MiB`);
  // The wire log counts what it did not keep.
  await page.click('#dock-tab-wire');
  const notes = page.locator('.wire-entry[data-method="tools/call"]').last().locator('.chip.notes');
  // The log draws once per animation frame: wait for the frame after the last notification.
  const counted = /the first 1000 are kept, 49000 more were counted and not kept/;
  await waitFor(async () => counted.test(await notes.getAttribute('title')), 'the chip counts all 50,000');
  assert.equal((await notes.textContent()).trim(), '50000 notif.');
  await page.click('#dock-tab-findings');
  await page.locator('#findings-panel .finding[data-rule="too-many-notifications"]').waitFor({ state: 'attached' });
  assert.deepEqual(errors, []);
  await page.close();
});

test('a task whose snapshot asks for 10,000 inputs is refused, and the server is asked to cancel it', async () => {
  const { page, errors } = await openHostile();
  await selectTool(page, 'task_asks_too_much');
  await page.locator('#call-panel .accept-task').check();
  await call(page);
  const row = await shown(page, '.task-row[data-status="refused"]', { timeout: 20000 });
  await waitFor(() => hostile.cancels.includes('asks-too-much'), 'tasks/cancel for the refused task');
  await page.locator('.task-row[data-status="refused"]:has-text("tasks/cancel was sent and acknowledged")').waitFor();
  const text = await row.innerText();
  assert.match(text, /Refused: the server asked for 10,000 inputs at once: over the bound of 64 \(Limits::max_input_requests\)/);
  const polls = hostile.polls['asks-too-much'];
  // About time: no poll follows, even a second later.
  await new Promise((r) => setTimeout(r, 1000));
  assert.equal(hostile.polls['asks-too-much'], polls, 'no poll after the task was refused');
  assert.equal(hostile.cancels.filter((id) => id === 'asks-too-much').length, 1, 'cancelled once');
  await screenshot(page, '95-task-refused-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshot(page, '96-task-refused-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  assert.deepEqual(errors, []);
  await page.close();
});

test('a request whose headers servers would refuse is not sent, and says why', async () => {
  const { page, errors } = await openHostile();
  const discovers = hostile.methods['server/discover'];
  await page.click('.toggle-headers');
  await page.click('.add-header');
  await page.locator('.header-name').last().fill('X-Huge');
  await page.locator('.header-value').last().fill('h'.repeat(9000));
  await page.click('#connect');
  const problem = await shown(page, '.error-message');
  assert.match(await problem.innerText(), /^Not sent: its headers would be [\d,]+ bytes \(X-Huge alone 9,0\d\d bytes\), over the 8,192 bytes servers accept \(Limits::max_header_bytes/);
  assert.equal(hostile.methods['server/discover'], discovers, 'the discover with the huge header never left');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a task the server forgets past its TTL ends as expired, and polling stops', async () => {
  const shortLived = await startHoldbay(['--task-ttl-seconds', '2']);
  try {
    const { page, errors } = await openPage(browser.context, `${shortLived.url}/`);
    await page.waitForSelector('.select-tool', { timeout: 15000 });
    const polls = [];
    page.on('request', (request) => {
      if (request.headers()['mcp-method'] === 'tasks/get') polls.push(Date.now());
    });
    await selectTool(page, 'run_pipeline');
    await fillField(page.locator('#call-panel'), 'duration_seconds', '60');
    await fillField(page.locator('#call-panel'), 'target', 'staging');
    await call(page);
    const row = await shown(page, '.task-row[data-status="expired"]', { timeout: 20000 });
    assert.match(await row.innerText(), /Expired: its TTL passed and the server no longer knows it/);
    assert.match(await row.innerText(), /polling over/);
    const ended = polls.length;
    // About time: no poll follows, even after a poll interval and more.
    await new Promise((r) => setTimeout(r, 2500));
    assert.equal(polls.length, ended, 'no poll after the task ended');
    await screenshot(page, '92-task-expired-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, '93-task-expired-dark');
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    shortLived.stop();
  }
});
