// Exact arguments from the form, against the real `holdbay serve`: `format_note` called with a
// CRLF multi-line text, a nullable title sent as null and an optional boolean left out. The
// request body on the wire (the page's own POST, and the wire log's record of it) carries
// exactly that; the server's structured result says how each argument arrived. The tool's
// schemas show as received, and a result that breaks its outputSchema is a finding shown
// with the result and in the findings list.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { demoAndBrowser, openCleanApp, screenshot } from './support.mjs';
import { selectTool, call, shown } from './ui.mjs';

const app = demoAndBrowser();

/** The field of the call form named `name` (its `.form-field` or fieldset). */
function field(page, name) {
  return page.locator(`#call-panel [data-presence]:has(> .field-head [name="${name}"]), #call-panel [data-presence]:has(> [name="${name}"])`).first();
}

/** Every tools/call the page POSTs to the demo server: its exact body and its answer. */
function recordCalls(page) {
  const calls = [];
  page.on('response', async (response) => {
    const request = response.request();
    if (request.method() !== 'POST' || !request.url().endsWith('/mcp')) return;
    const body = request.postData() ?? '';
    if (!body.includes('"tools/call"')) return;
    calls.push({ body, answer: await response.text().catch(() => '') });
  });
  return calls;
}

/** The JSON-RPC result in an answer (plain JSON or the last SSE `data:` line). */
function resultOf(answer) {
  const text = answer.trim().startsWith('{')
    ? answer
    : answer.split('\n').filter((line) => line.startsWith('data:')).map((line) => line.slice(5)).pop();
  return JSON.parse(text).result;
}

async function waitFor(check, what, timeout = 10000) {
  const deadline = Date.now() + timeout;
  while (Date.now() < deadline) {
    const found = check();
    if (found) return found;
    await new Promise((resolveSoon) => setTimeout(resolveSoon, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

test('a CRLF text, a null and a left-out boolean go on the wire exactly as the form shows them', async () => {
  const { page, errors } = await openCleanApp(app.context, app.url);
  const calls = recordCalls(page);
  await selectTool(page, 'format_note');

  // The schemas as received: key order kept, `$ref` as written, 2020-12 keywords there.
  await page.click('#call-panel .output-schema > summary');
  const output = await page.locator('#call-panel .output-schema .schema-json').textContent();
  const keys = ['"$schema"', '"type"', '"$defs"', '"properties"', '"required"', '"additionalProperties"'];
  const positions = keys.map((key) => output.indexOf(key));
  assert.ok(positions.every((p, i) => p >= 0 && (i === 0 || p > positions[i - 1])), `key order: ${positions}`);
  assert.ok(output.includes('"$ref": "#/$defs/arrival"'), 'the $ref is not dereferenced');
  await page.click('#call-panel .input-schema > summary');
  const input = await page.locator('#call-panel .input-schema .schema-json').textContent();
  assert.ok(input.includes('"null"') && input.includes('"break_schema"'), input);

  // The optional boolean starts left out; the nullable title is set to null.
  assert.equal(await field(page, 'uppercase').getAttribute('data-presence'), 'omitted');
  assert.equal(await field(page, 'title').getAttribute('data-presence'), 'omitted');
  await field(page, 'title').locator('.presence-null').click();
  assert.equal(await field(page, 'title').getAttribute('data-presence'), 'null');

  // The text over several lines, sent with CRLF.
  await field(page, 'text').locator('.multiline-toggle').click();
  await field(page, 'text').locator('select.line-ending').selectOption('CRLF');
  await page.locator('#call-panel textarea[name="text"]').fill('first line\n  second line \nthird');
  const expected = { text: 'first line\r\n  second line \r\nthird', title: null };
  const preview = await page.locator('#call-panel .json-preview-line').textContent();
  assert.equal(preview, JSON.stringify(expected), 'the preview is the JSON to send');
  await page.click('#call-panel .json-preview > summary');
  await page.click('#call-panel .input-schema > summary');
  await page.click('#call-panel .output-schema > summary');
  await field(page, 'text').scrollIntoViewIfNeeded();
  await screenshot(page, '80-exact-arguments-form');
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshot(page, '81-exact-arguments-form-dark');
  await page.emulateMedia({ colorScheme: 'light' });

  await call(page);
  await shown(page, '#call-panel .call-result');
  const sent = await waitFor(() => calls.find((c) => c.answer), 'the tools/call exchange');
  // Exactly these bytes for the arguments: CRLF escaped as \r\n, null, no `uppercase` key.
  assert.ok(
    sent.body.includes('"arguments":{"text":"first line\\r\\n  second line \\r\\nthird","title":null}'),
    sent.body,
  );
  assert.deepEqual(JSON.parse(sent.body).params.arguments, expected);
  const structured = resultOf(sent.answer).structuredContent;
  assert.deepEqual(structured.received, { title: 'null', uppercase: 'absent' });
  assert.deepEqual(structured.line_endings, ['CRLF']);
  assert.equal(structured.note, expected.text);

  // The wire log recorded that very body.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('.wire-export')]);
  const exported = JSON.parse(readFileSync(await download.path(), 'utf8'));
  const logged = exported.entries.find((entry) => entry.method === 'tools/call' && entry.name === 'format_note');
  assert.ok(logged, 'the call is in the wire log');
  assert.equal(logged.requestBody, sent.body);
  assert.equal(await page.locator('#call-panel .result-findings').count(), 0, 'the result keeps its schema');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a result that breaks the outputSchema is a finding with the result and in the findings list', async () => {
  const { page, errors } = await openCleanApp(app.context, app.url);
  await selectTool(page, 'format_note');
  await page.locator('#call-panel textarea[name="text"], #call-panel input[name="text"]').first().fill('a note');
  await page.locator('#call-panel input[name="break_schema"]').check();
  assert.equal(await field(page, 'break_schema').getAttribute('data-presence'), 'value');
  await call(page);
  const finding = await shown(page, '#call-panel .result-findings .finding[data-rule="output-schema-mismatch"]');
  const said = await finding.textContent();
  assert.ok(said.includes('/lines: expected integer, got string'), said);
  assert.ok(said.includes('`title` is required') && said.includes('`extra` is not allowed'), said);
  assert.equal(await finding.getAttribute('data-severity'), 'MUST');
  // The findings list too (its pane is built when the tab is first opened).
  await page.click('#dock-tab-findings');
  await page.locator('#findings-panel .finding[data-rule="output-schema-mismatch"]').waitFor();
  await page.click('#dock-tab-wire');

  await page.click('#call-panel .output-schema > summary');
  await page.locator('#call-panel .result-findings').scrollIntoViewIfNeeded();
  await screenshot(page, '82-output-schema-finding');
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshot(page, '83-output-schema-finding-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  assert.deepEqual(errors, []);
  await page.close();
});
