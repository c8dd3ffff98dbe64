// The client command for `@modelcontextprotocol/conformance` in client mode: it drives the
// real Holdbay app, in headless Chromium, against the suite's mock server, through the UI
// only (clicks, typing into forms and the Raw JSON editor, the sign-in card and its
// popup), as a developer would.
//
//   node browser-client.mjs [--variant=NAME] <mock server URL>
//
// The suite appends the URL and sets MCP_CONFORMANCE_SCENARIO (and MCP_CONFORMANCE_CONTEXT:
// the calls to make for http-custom-headers, the pre-registered client for
// auth/pre-registration). HOLDBAY_URL names a running `holdbay serve` (run.sh starts one);
// the app is opened at `/?server=<mock>&relay=1`, because the mock servers send no CORS
// headers. `--variant` picks one way of running a scenario that has several: form or raw
// for http-custom-headers (how the arguments are entered; `--arguments=` is the old name),
// cimd or dcr for auth/offline-access-scope (how the app registers).
//
// Exits non-zero on anything the UI shows as an error (`.error-notice`, `.call-error`,
// `.sign-in-error`) other than the refusal the scenario asks for and its driver declared
// with `ui.expectError`, any page or console error (in the page or a sign-in popup), a
// sign-in popup left open, a call whose arguments on the wire differ from the ones asked
// for, or a step that does not happen. HOLDBAY_SHOTS=DIR keeps a screenshot of the end state.
import { createRequire } from 'node:module';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { selectTool, fillField, answerInput, call, shown } from '../../e2e/ui.mjs';
import { scenarios } from './scenarios.mjs';

const root = resolve(import.meta.dirname, '..', '..', '..');
// Playwright comes from the end-to-end tests' pinned install (tests/e2e/package.json).
const require = createRequire(join(root, 'tests', 'e2e', 'package.json'));

const serverUrl = process.argv.at(-1);
const variant = process.argv.find((arg) => /^--(variant|arguments)=/.test(arg))?.split('=')[1];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO;
// The revision the suite runs the scenario at: an older one is asked of the app with `era=`
// (its legacy session), as a developer would for a server of that revision.
const revision = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION;
const legacyRevision = revision && revision <= '2025-11-25' ? revision : null;
const holdbay = process.env.HOLDBAY_URL;

function log(...parts) {
  console.log(`[${new Date().toISOString().slice(11, 23)}]`, ...parts);
}

async function main() {
  if (!holdbay) throw new Error('HOLDBAY_URL is not set: start holdbay serve (run.sh does)');
  if (!serverUrl?.startsWith('http')) throw new Error(`no server URL as last argument: ${serverUrl}`);
  const drive = scenarios[scenario];
  if (!drive) throw new Error(`no driver for scenario ${scenario}`);
  const variants = drive.variants ?? [];
  if (variant !== undefined && !variants.includes(variant)) {
    throw new Error(`${scenario} has ${variants.length ? `the variants ${variants.join(', ')}` : 'no variants'}, not ${variant}`);
  }
  let chromium;
  try {
    ({ chromium } = require('playwright-core'));
  } catch {
    throw new Error('playwright-core is missing: run npm ci in tests/e2e');
  }

  const profile = mkdtempSync(join(tmpdir(), 'holdbay-conformance-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1280, height: 720 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const problems = [];
  const expected = [];
  const popups = [];
  let ui;
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    watchForErrors(page, 'the page', problems);
    // A sign-in opens a popup at the authorization server; its errors count as the page's.
    context.on('page', (popup) => {
      popups.push(popup);
      watchForErrors(popup, 'a sign-in popup', problems);
    });
    const traffic = watchTraffic(context, problems);

    const era = legacyRevision ? `&era=${legacyRevision}` : '';
    const address = `${holdbay}/?server=${encodeURIComponent(serverUrl)}&relay=1${era}`;
    log(`scenario ${scenario}${variant ? ` (${variant})` : ''}: opening ${address}`);
    await page.goto(address);
    ui = makeUi(page, traffic, problems, expected, popups);
    await drive(ui, { context: readContext(), variant, mode: variant ?? 'form', serverUrl });
    await ui.settle();
    const shownErrors = await page.locator('.error-notice, .call-error, .sign-in-error').allInnerTexts();
    for (const raw of shownErrors) {
      const text = raw.replace(/\s+/g, ' ').trim();
      const allowed = expected.find(({ pattern }) => pattern.test(text));
      if (allowed) log(`the page shows the error the scenario asks for (${allowed.why}): ${text}`);
      else problems.push(`the page shows an error: ${text}`);
    }
    for (const popup of popups) {
      if (!popup.isClosed()) await popup.waitForEvent('close', { timeout: 5000 }).catch(() => {});
      if (!popup.isClosed()) problems.push(`a sign-in popup stayed open at ${popup.url()}`);
    }
    const findings = await page.locator('#findings li, .finding').allInnerTexts().catch(() => []);
    if (findings.length > 0) log(`findings shown (not failures): ${findings.join(' | ').replace(/\s+/g, ' ')}`);
    if (process.env.HOLDBAY_SHOTS) {
      mkdirSync(process.env.HOLDBAY_SHOTS, { recursive: true });
      const name = `${scenario.replace(/\//g, '_')}${variant ? `-${variant}` : ''}.png`;
      await page.screenshot({ path: join(process.env.HOLDBAY_SHOTS, name) });
    }
    log(`sent ${traffic.sent.length} MCP requests: ${traffic.sent.map(describe).join(', ')}`);
    if (traffic.auth.length > 0) log(`authorization exchanges: ${traffic.auth.map(describeAuth).join(', ')}`);
  } catch (error) {
    problems.push(`driver: ${error.stack ?? error}`);
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
  if (problems.length > 0) {
    for (const problem of problems) console.error(`FAIL ${problem}`);
    process.exitCode = 1;
  } else {
    log('done, no UI or console error');
  }
}

/** Page errors and console errors of `page` (the app, or a sign-in popup) are problems. */
function watchForErrors(page, who, problems) {
  page.on('pageerror', (error) => problems.push(`${who}: page error: ${error.message}`));
  page.on('console', (message) => {
    // Chromium's own line for an HTTP error status (a scenario may answer 400 or 401 on purpose).
    if (message.type() === 'error' && !/^Failed to load resource/.test(message.text())) {
      problems.push(`${who}: console error: ${message.text()}`);
    }
  });
}

/**
 * What the app sent, read off the network (never to drive it), in every page of the
 * context (the app and its sign-in popups):
 * - `sent`: the JSON-RPC body of every MCP request, i.e. every POST to `/relay` whose
 *   `target` is the MCP server; such a body that is not JSON is a problem;
 * - `auth`: every other exchange with the mock's servers, the authorization ones (PRM and
 *   AS metadata, registration, token requests through the relay, whatever their body; the
 *   popup's trip to `/authorize`): `{ method, target, path, leg, body, status, answer }`,
 *   `leg` the last path segment for the AS endpoints (authorize, token, register).
 * Secrets in these records stay in memory; the log prints methods and paths only.
 */
function watchTraffic(context, problems) {
  const sent = [];
  const auth = [];
  const byRequest = new Map();
  const mcp = new URL(serverUrl).href;
  const own = new URL(holdbay).origin;
  context.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.includes('/canary/')) problems.push(`the page fetched ${url.href}`);
    let target;
    if (url.origin === own) {
      if (url.pathname !== '/relay') return;
      target = url.searchParams.get('target') ?? '';
    } else if (url.protocol === 'http:' || url.protocol === 'https:') {
      target = url.href; // the popup at the authorization server, or a direct fetch
    } else {
      return;
    }
    let targetUrl;
    try {
      targetUrl = new URL(target);
    } catch {
      problems.push(`a relay request whose target is not a URL: ${target}`);
      return;
    }
    if (targetUrl.href === mcp && request.method() === 'POST') {
      try {
        sent.push(request.postDataJSON());
      } catch {
        problems.push(`an MCP request body that is not JSON: ${request.postData()}`);
      }
      return;
    }
    if (targetUrl.href === mcp) return;
    const record = {
      method: request.method(),
      target: targetUrl.href,
      path: targetUrl.pathname,
      leg: legOf(targetUrl.pathname),
      via: url.origin === own ? 'relay' : 'browser',
      body: request.postData() ?? undefined,
      query: Object.fromEntries(targetUrl.searchParams),
      status: undefined,
      answer: undefined,
    };
    auth.push(record);
    byRequest.set(request, record);
  });
  context.on('response', async (response) => {
    const record = byRequest.get(response.request());
    if (!record) return;
    record.status = response.status();
    if (record.leg === 'token' || record.leg === 'register') {
      record.answer = await response.text().catch(() => undefined);
    }
  });
  return { sent, auth };
}

/** authorize, token or register for an AS endpoint (any route prefix), else undefined. */
function legOf(path) {
  const last = path.split('/').at(-1);
  return ['authorize', 'token', 'register'].includes(last) && !path.includes('/.well-known/') ? last : undefined;
}

function readContext() {
  const text = process.env.MCP_CONFORMANCE_CONTEXT;
  return text ? JSON.parse(text) : {};
}

function describe(body) {
  const name = body?.params?.name ?? body?.params?.uri;
  return `${body?.method}${name ? `(${name})` : ''}#${body?.id}`;
}

/** An authorization exchange without its secrets: method, path and status. */
function describeAuth(record) {
  const grant = record.leg === 'token' ? new URLSearchParams(record.body ?? '').get('grant_type') : null;
  return `${record.method} ${record.path}${grant ? `(${grant})` : ''} ${record.status ?? '-'}`;
}

/** The operations a scenario driver uses, all through the page's UI. */
function makeUi(page, traffic, problems, expected, popups) {
  const panel = page.locator('#call-panel');
  const { sent, auth } = traffic;
  const ui = {
    page,
    sent,
    /** The authorization exchanges so far (see watchTraffic). */
    auth,
    /** Every sign-in popup opened so far. */
    popups,
    problems,
    log,
    /**
     * The scenario asks the app to refuse: an error shown on the page that matches
     * `pattern` is what it asks for, not a failure (`why` says which refusal). Every other
     * error shown still fails the run; the driver checks itself that the page said why.
     */
    expectError(pattern, why) {
      expected.push({ pattern, why });
    },
    /** Wait until discovery and the tool list have settled; the listed tool names. */
    async tools() {
      await page.waitForSelector('.select-tool, #no-tools, .error-notice, #tools-panel', { timeout: 20000 });
      await page.waitForFunction(() => !document.querySelector('.pending'), null, { timeout: 20000 });
      return page.$$eval('.tool-name', (nodes) => nodes.map((node) => node.textContent));
    },
    /** Wait for discovery to end, successfully or not. */
    async discovered() {
      await page.waitForSelector('#discover-panel, .error-notice', { timeout: 20000 });
      return (await page.locator('#discover-panel').count()) > 0;
    },
    async select(name) {
      log(`select ${name}`);
      await selectTool(page, name);
    },
    /** Fill the call form's fields from `args` (a JSON object), as a person would. */
    async fillForm(args) {
      await leaveForm();
      for (const [name, value] of Object.entries(args)) await setField(panel, name, value);
    },
    /** Type `args` into the Raw JSON editor. */
    async fillRaw(args) {
      const toggle = panel.locator('.raw-toggle');
      if ((await toggle.getAttribute('aria-pressed')) !== 'true') await toggle.click();
      await panel.locator('textarea.arguments-json').fill(JSON.stringify(args, null, 2));
    },
    /** Press Call and wait for the result (or the first input request). */
    async call() {
      const before = sent.length;
      await call(page);
      await shown(panel, '.call-result, .input-request, .call-error', { timeout: 20000 });
      return sent.slice(before);
    },
    async result() {
      const result = await shown(panel, '.call-result, .call-error', { timeout: 20000 });
      return (await result.innerText()).trim();
    },
    /** The pending input request card with `key`. */
    async card(key) {
      return shown(panel, `.input-request[data-key="${key}"]:not(.answered)`);
    },
    fillField,
    answerInput,
    shown,
    /** With HOLDBAY_SHOTS, a screenshot of the page now, light and dark (a step worth seeing). */
    async snapshot(label) {
      if (!process.env.HOLDBAY_SHOTS) return;
      mkdirSync(process.env.HOLDBAY_SHOTS, { recursive: true });
      for (const colorScheme of ['light', 'dark']) {
        await page.emulateMedia({ colorScheme });
        await page.screenshot({ path: join(process.env.HOLDBAY_SHOTS, `${label}-${colorScheme}.png`) });
      }
      await page.emulateMedia({ colorScheme: 'light' });
    },
    /** The tools/call requests sent for `tool`, in order. */
    callsOf(tool) {
      return sent.filter((body) => body?.method === 'tools/call' && body.params?.name === tool);
    },
    /** Fail the run unless `actual` deep-equals `expected`. */
    same(what, actual, expected) {
      if (!isDeepStrictEqual(actual, expected)) {
        problems.push(`${what}: sent ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`);
      } else {
        log(`${what}: as expected`);
      }
    },
    check(what, ok, detail = '') {
      if (!ok) problems.push(`${what}${detail ? `: ${detail}` : ''}`);
      else log(`${what}: ok`);
    },
    /** Let in-flight exchanges finish before the browser closes. */
    async settle() {
      await page.waitForLoadState('networkidle', { timeout: 5000 }).catch(() => {});
    },
  };

  async function leaveForm() {
    const toggle = panel.locator('.raw-toggle');
    if ((await toggle.count()) > 0 && (await toggle.getAttribute('aria-pressed')) === 'true') {
      await toggle.click();
    }
  }
  return ui;
}

/**
 * Set one argument in the form, whatever control the form chose for it. null: the field's
 * "null" control where the schema allows null, else its "Leave out" control (the header rule
 * treats both alike). A string with line breaks goes into the multi-line editor with its line
 * break kind chosen; an empty string is typed (and so sent) as empty.
 */
async function setField(scope, name, value) {
  const field = scope.locator(`[name="${name}"]`).first();
  if ((await field.count()) === 0) throw new Error(`the form has no field named ${name}`);
  const box = field.locator('xpath=ancestor::*[contains(concat(" ", @class, " "), " form-field ")][1]');
  const press = async (selector) => {
    const button = box.locator(selector).first();
    if ((await button.count()) === 0) return false;
    if ((await button.getAttribute('aria-pressed')) !== 'true') await button.click();
    return true;
  };
  if (value === null) {
    if (!(await press('.presence-null'))) await press('.presence-omit');
    return;
  }
  const tag = await field.evaluate((node) => node.tagName.toLowerCase());
  const type = (await field.getAttribute('type')) ?? '';
  if (typeof value === 'boolean') {
    if (type === 'checkbox') {
      await field.check();
      if (!value) await field.uncheck(); // ticked once: false is then sent, not left out
    } else if (tag === 'select') {
      await field.selectOption(String(value));
    } else if (type === 'radio') {
      await scope.locator(`[name="${name}"][value="${value}"]`).check();
    } else {
      await field.fill(String(value));
    }
    return;
  }
  if (tag === 'select') {
    await field.selectOption(String(value));
    return;
  }
  const text = String(value);
  if (/[\r\n]/.test(text)) {
    if (!(await press('.multiline-toggle'))) throw new Error(`${name}: the form offers no multi-line editor`);
    const ending = text.includes('\r\n') ? 'CRLF' : text.includes('\r') ? 'CR' : 'LF';
    const choice = box.locator('select.line-ending');
    if ((await choice.count()) > 0) await choice.selectOption(ending);
    else if (ending !== 'LF') throw new Error(`${name}: the form offers no choice of line break`);
    await box.locator(`textarea[name="${name}"]`).fill(text.replace(/\r\n?/g, '\n'));
    return;
  }
  // Typing something first makes an empty string a typed value, not an untouched field.
  if (text === '') await field.fill(' ');
  await field.fill(text);
}

main().catch((error) => {
  console.error(`FAIL driver: ${error.stack ?? error}`);
  process.exitCode = 1;
});
