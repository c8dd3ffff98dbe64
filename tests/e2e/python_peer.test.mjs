// A server on the official Python SDK v2 (`mcp` 2.3.0, tests/peers/python_mcp_peer.py) on
// stdio through `holdbay serve --stdio`, in both of its eras: detected as 2026-07-28 (its
// question comes as an MRTR round), and asked for as 2025-11-25 with `&era=` (the same
// question as elicitation/create in the middle of the call). Tools, a call, a resource, a
// prompt, through the UI only.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHoldbay, pythonMcpStdioArg, launchBrowser, openPage, screenshot } from './support.mjs';
import { selectTool, fillField, call, shown, answerInput } from './ui.mjs';
import { pickPrompt, getPrompt, readResource, typeArgument } from './library.mjs';

let browser;

before(async () => {
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
});

/** A holdbay running the peer, and the page's address for it (with `query` added). One per
 * test: a stdio process is one client's, and the first era it is spoken to is its era. */
async function withPeer(query, body) {
  const holdbay = await startHoldbay(['--stdio', pythonMcpStdioArg('python')]);
  try {
    const server = encodeURIComponent(`${holdbay.url}/stdio/python`);
    await body(`${holdbay.url}/?server=${server}${query}`);
  } finally {
    holdbay.stop();
  }
}

/** Greet through the card the server's question brings (`where`: the card's selector). */
async function greet(page, where, name) {
  await selectTool(page, 'greet');
  await call(page);
  const card = await shown(page, where);
  await fillField(card, 'name', name);
  await answerInput(card, 'accept');
  return (await shown(page, '#call-panel .call-result')).textContent();
}

/** Add, read the motto, get the review prompt: the same in either era. */
async function theRest(page) {
  await selectTool(page, 'add');
  await fillField(page.locator('#call-panel'), 'a', '2');
  await fillField(page.locator('#call-panel'), 'b', '40');
  await call(page);
  assert.match(await (await shown(page, '#call-panel .call-result')).textContent(), /2 \+ 40 = 42/);
  const reader = await readResource(page, 'peer://motto');
  assert.match(await (await shown(reader, '.read-result')).textContent(), /Small, typed and honest\./);
  const panel = await pickPrompt(page, 'review');
  await typeArgument(panel, 'topic', 'the wire log');
  await getPrompt(page);
  assert.match(await (await shown(page, '#prompt-panel .prompt-result')).textContent(), /Review the wire log in three sentences\./);
}

test('the Python SDK peer on stdio, detected as 2026-07-28: its question is an MRTR round', () => withPeer('', async (url) => {
  const { page, errors } = await openPage(browser.context, url);
  await shown(page, '#discover-panel');
  assert.equal(await page.locator('#era-chip').count(), 0, 'not a legacy session');
  const said = await greet(page, '#call-panel .input-request:not(.server-asks .input-request)', 'Ada');
  assert.match(said, /Hello, Ada, from Python/);
  await screenshot(page, 'python-peer-modern');
  await theRest(page);
  assert.deepEqual(errors, []);
  await page.close();
}));

test('the Python SDK peer on stdio at 2025-11-25: the same question as elicitation/create mid-call', () => withPeer('&era=2025-11-25', async (url) => {
  const { page, errors } = await openPage(browser.context, url);
  assert.equal((await (await shown(page, '#era-chip')).textContent()).trim(), 'legacy');
  const said = await greet(page, '.server-asks .input-request', 'Grace');
  assert.match(said, /Hello, Grace, from Python/);
  await screenshot(page, 'python-peer-legacy');
  await theRest(page);
  assert.deepEqual(errors, []);
  await page.close();
}));
