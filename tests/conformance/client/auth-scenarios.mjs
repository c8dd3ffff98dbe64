// What the browser client does for the suite's auth/* client scenarios, through the app's
// sign-in UI only (the card `#sign-in`, its popup, "Headers and limits"), as a developer
// would: each driver does what its scenario's mocks grade (read in the suite's source,
// @modelcontextprotocol/conformance 0.2.0-alpha.12; catalog in docs/auth-scenarios.md) and
// checks on the page what a user would see. `ui` comes from browser-client.mjs.
//
// Every authorization-code mock answers /authorize with an immediate redirect to the app's
// /oauth/callback (no consent page), so a sign-in round is: press Sign in, the popup opens
// at the AS, lands on the callback, closes itself, and the card goes away (or says why not).
// After signing in, a driver does what the suite's own client does (`auth-test.ts`): list
// the tools and call `test-tool` once; the scope-step-up and authorization-server-migration
// mocks refuse a later request, so their sign-ins continue while the tools load or the call
// runs.

/**
 * The client id the suite's own client presents when the AS supports Client ID Metadata
 * Documents (`auth-test.ts`, CIMD_CLIENT_METADATA_URL). The mocks never fetch it:
 * auth/basic-cimd compares the client_id at /authorize with it, and offline-access-scope
 * tries to fetch it after the checks are written (so at most an INFO).
 */
export const CIMD_URL = 'https://conformance-test.local/client-metadata.json';

/** How long one sign-in round may take, from the press to the card's answer. */
const ROUND_TIMEOUT = 30000;

/**
 * Type how the app presents itself to authorization servers under "Headers and limits"
 * (fieldset .sign-in-settings), then close the panel; they apply to the next sign-in.
 */
async function presentAs(ui, { clientId, clientSecret, metadataUrl }) {
  const fields = [
    ['#auth-client-id', clientId],
    ['#auth-client-secret', clientSecret],
    ['#auth-client-metadata-url', metadataUrl],
  ].filter(([, value]) => value !== undefined);
  if (fields.length === 0) return;
  const toggle = ui.page.locator('button.toggle-headers');
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  const settings = ui.page.locator('#header-editor .sign-in-settings');
  await settings.waitFor({ timeout: 10000 }).catch(() => {
    throw new Error('"Headers and limits" (#header-editor) has no .sign-in-settings fieldset');
  });
  for (const [selector, value] of fields) {
    const field = settings.locator(selector);
    await field.fill(value);
    await field.blur(); // a change handler sees it too
  }
  ui.log(`presenting as ${[
    clientId && `client id ${clientId}`,
    clientSecret && 'with its secret',
    metadataUrl && `metadata document ${metadataUrl}`,
  ].filter(Boolean).join(', ')}`);
  await toggle.click();
}

/** What the page shows of the sign-in, read in one go (the page may be navigating). */
async function signInState(page) {
  try {
    return await page.evaluate(() => {
      const visible = (node) => !!node && node.getClientRects().length > 0;
      const text = (node) => (visible(node) ? node.innerText.replace(/\s+/g, ' ').trim() : null);
      const card = document.querySelector('#sign-in');
      const button = card?.querySelector('button.sign-in');
      return {
        asking: visible(button) && !button.disabled,
        stepUp: card?.dataset.stepUp === 'true',
        why: text(card?.querySelector('.sign-in-why')),
        progress: visible(card?.querySelector('.sign-in-progress')),
        error: text(document.querySelector('.sign-in-error')),
        connectError: text(document.querySelector('.error-notice')),
        callDone: visible(document.querySelector('#call-panel .call-result, #call-panel .call-error')),
        signedIn: text(document.querySelector('.auth-status[data-state="signed-in"]')),
      };
    });
  } catch {
    return { navigating: true };
  }
}

/**
 * Wait for the page to ask for a sign-in: the card with its button, unless it says at once
 * why it cannot (`.sign-in-error`) or the connection failed without asking.
 */
async function askedToSignIn(ui, what = 'the sign-in card') {
  const deadline = Date.now() + 20000;
  for (;;) {
    const state = await signInState(ui.page);
    if (state.asking && !state.progress) {
      ui.log(`${what}: ${state.stepUp ? 'step-up, ' : ''}"${state.why}"`);
      return state;
    }
    if (state.error || state.connectError) return state;
    if (Date.now() > deadline) throw new Error(`${what} (#sign-in button.sign-in) did not appear: ${JSON.stringify(state)}`);
    await ui.page.waitForTimeout(150);
  }
}

/** The token requests answered with 2xx so far. */
function tokensGranted(ui) {
  return ui.auth.filter((r) => r.leg === 'token' && r.status >= 200 && r.status < 300);
}

function legs(ui, leg) {
  return ui.auth.filter((r) => r.leg === leg);
}

/**
 * Press the card's button (its label must match `label`) and follow the flow to its end:
 * 'signed-in' once a token answer arrived and the flow is no longer running (the card went
 * away, or already asks anew), 'refused' when the card shows `.sign-in-error`. The popup
 * must close itself (the callback page does). Returns the outcome, the error text, and the
 * authorization requests this round made.
 */
async function signInRound(ui, { label = /^Sign in$/ } = {}) {
  const page = ui.page;
  const button = page.locator('#sign-in button.sign-in');
  const text = (await button.innerText()).trim();
  ui.check(`the sign-in button says "${text}"`, label.test(text), `expected ${label}`);
  const before = { tokens: tokensGranted(ui).length, authorize: legs(ui, 'authorize').length, popups: ui.popups.length };
  const earlier = (await signInState(page)).error;
  await button.click();
  const pressed = Date.now();
  const deadline = pressed + ROUND_TIMEOUT;
  let outcome;
  let error = null;
  let moved = !earlier; // an error left from an earlier round counts once it went away
  while (!outcome) {
    const state = await signInState(page);
    if (state.progress || state.error !== earlier) moved = true;
    // The same error again, at once and with nothing shown in between, is an answer too.
    if (!moved && Date.now() - pressed > 3000) moved = true;
    if (!state.navigating && !state.progress) {
      if (state.error && moved) {
        outcome = 'refused';
        error = state.error;
      } else if (tokensGranted(ui).length > before.tokens && !state.error) {
        outcome = 'signed-in';
      }
    }
    if (outcome) break;
    if (Date.now() > deadline) {
      const trips = ui.auth.map((r) => `${r.method} ${r.path} ${r.status ?? '-'}`).join(', ');
      throw new Error(`the sign-in did not end within ${ROUND_TIMEOUT} ms: ${JSON.stringify(state)}; exchanges: ${trips}`);
    }
    await page.waitForTimeout(150);
  }
  const authorize = legs(ui, 'authorize').slice(before.authorize);
  const popups = ui.popups.slice(before.popups);
  for (const popup of popups) {
    if (!popup.isClosed()) await popup.waitForEvent('close', { timeout: 5000 }).catch(() => {});
  }
  ui.check('the sign-in popup closed itself', popups.every((popup) => popup.isClosed()),
    popups.map((popup) => popup.url()).join(', '));
  if (popups.length === 0 && authorize.length > 0) ui.log('no popup: the page went to the authorization server itself');
  for (const request of authorize) {
    ui.log(`authorize at ${request.path}: client_id=${request.query.client_id}, scope=${request.query.scope ?? '(none)'}`);
  }
  ui.log(`sign-in round: ${outcome}${error ? `: ${error}` : ''}`);
  return { outcome, error, authorize };
}

/**
 * Wait until `done(state)` holds, signing in again each time the page asks (a card that
 * asks, no error, no flow running), at most `max` more rounds, each with `check(ask)`.
 */
async function signInWhileAsked(ui, done, { max = 0, what, check = () => {}, timeout = 25000 }) {
  const rounds = [];
  const deadline = Date.now() + timeout;
  for (;;) {
    const state = await signInState(ui.page);
    if (!state.navigating && (await done(state))) return rounds;
    if (state.asking && !state.progress && !state.error) {
      if (rounds.length >= max) {
        ui.problems.push(`the page asked to sign in again (${state.why}) while ${what}, more than the scenario needs`);
        return rounds;
      }
      ui.log(`asked again while ${what}: ${state.stepUp ? 'step-up, ' : ''}"${state.why}"`);
      check(state);
      const round = await signInRound(ui, { label: state.stepUp ? /^Sign in again$/ : /^Sign in$/ });
      rounds.push(round);
      if (round.outcome !== 'signed-in') return rounds;
      continue;
    }
    if (state.error) {
      ui.problems.push(`the sign-in failed while ${what}: ${state.error}`);
      return rounds;
    }
    if (Date.now() > deadline) throw new Error(`timed out while ${what}: ${JSON.stringify(state)}`);
    await ui.page.waitForTimeout(150);
  }
}

/** The issuer an authorize request went to: its URL without `/authorize`. */
function issuerOf(request) {
  const url = new URL(request.target);
  return `${url.origin}${url.pathname.replace(/\/authorize$/, '')}`;
}

/** How the connection bar words each way the client is known to the AS. */
const REGISTRATION = {
  dynamic: /registered dynamically/i,
  metadata: /metadata document/i,
  preRegistered: /pre-registered/i,
};

/**
 * After signing in: the connection bar says so, with the issuer and, when `registration`
 * names one (a key of REGISTRATION), how the client was registered.
 */
async function checkSignedIn(ui, issuer, registration) {
  const status = ui.page.locator('.auth-status[data-state="signed-in"]');
  await status.waitFor({ timeout: 10000 });
  const text = (await status.innerText()).replace(/\s+/g, ' ').trim();
  ui.check('the connection bar shows the issuer signed in with', text.includes(issuer),
    `"${text}" does not name ${issuer}`);
  if (registration) {
    ui.check(`the connection bar says how the client is known (${registration})`,
      REGISTRATION[registration].test(text), text);
  }
  ui.check('the connection bar offers Sign out', (await ui.page.locator('button.sign-out').count()) > 0);
}

/** Tools listed, `test-tool` called through the form; sign-ins as the page asks, up to `max`. */
async function listAndCall(ui, { max = 0, check } = {}) {
  const toolsShown = async () => (await ui.page.locator('.tool-name').count()) > 0;
  const rounds = await signInWhileAsked(ui, toolsShown, { max, what: 'the tools load', check });
  const tools = await ui.page.$$eval('.tool-name', (nodes) => nodes.map((node) => node.textContent.trim()));
  ui.same('tools listed', tools, ['test-tool']);
  await ui.select('test-tool');
  await ui.page.click('#call-panel button.call');
  const called = async (state) => state.callDone;
  rounds.push(...(await signInWhileAsked(ui, called, { max: max - rounds.length, what: 'test-tool runs', check })));
  const text = await ui.result();
  ui.check('test-tool answers "test"', /\btest\b/.test(text), text);
  return rounds;
}

/**
 * The wire log shows the authorization exchanges as rows labelled by purpose (the labels of
 * holdbay_engine::auth::Purpose); `register` says whether a dynamic registration is one.
 */
async function checkWireLog(ui, { register, token = true, serverMetadata = true }) {
  const rows = (label) => ui.page.locator(`.wire-entry[data-method="${label}"]`);
  // The log draws its rows a moment after the exchange (it redraws calmly): wait for one.
  const shown = async (label) => {
    await rows(label).first().waitFor({ state: 'attached', timeout: 5000 }).catch(() => {});
    return rows(label).count();
  };
  ui.check('the wire log shows the resource metadata fetch', (await shown('oauth: resource metadata')) > 0);
  if (serverMetadata) ui.check('the wire log shows the server metadata fetch', (await shown('oauth: server metadata')) > 0);
  if (register !== undefined) {
    const count = register ? await shown('oauth: register') : await rows('oauth: register').count();
    ui.check(`the wire log shows ${register ? 'a' : 'no'} registration`, register ? count > 0 : count === 0, `${count} rows`);
  }
  const tokens = token ? await shown('oauth: token') : await rows('oauth: token').count();
  ui.check(`the wire log shows ${token ? 'the' : 'no'} token request`, token ? tokens > 0 : tokens === 0, `${tokens} rows`);
}

/**
 * No secret of the flow is on the page (wire log rows included, open or not) or in
 * localStorage ("Remember" is not ticked): the code, the verifier, tokens, client secrets.
 */
async function checkNoSecretsShown(ui, context = {}) {
  const secrets = new Set(['test-auth-code']);
  if (context.client_secret) secrets.add(context.client_secret);
  for (const record of ui.auth) {
    if (record.leg === 'token' && record.body) {
      const form = new URLSearchParams(record.body);
      for (const name of ['code', 'code_verifier', 'client_secret', 'refresh_token']) {
        if (form.get(name)) secrets.add(form.get(name));
      }
    }
    if ((record.leg === 'token' || record.leg === 'register') && record.answer) {
      try {
        const answer = JSON.parse(record.answer);
        for (const name of ['access_token', 'refresh_token', 'client_secret']) {
          if (typeof answer[name] === 'string') secrets.add(answer[name]);
        }
      } catch {
        // not JSON: nothing to look for
      }
    }
  }
  const { text, stored } = await ui.page.evaluate(() => ({
    text: document.body.textContent,
    stored: JSON.stringify(Object.entries(localStorage)),
  }));
  const long = [...secrets].filter((secret) => secret.length >= 8);
  const shown = long.filter((secret) => text.includes(secret));
  const kept = long.filter((secret) => stored.includes(secret));
  ui.check(`no secret of the sign-in is shown (${long.length} looked for)`, shown.length === 0,
    `${shown.length} shown, e.g. one starting ${shown[0]?.slice(0, 6)}`);
  ui.check('nothing secret is kept in localStorage without "Remember"', kept.length === 0,
    `${kept.length} kept, e.g. one starting ${kept[0]?.slice(0, 6)}`);
}

/**
 * The common scenario: sign in once (presenting as `present` says), then list the tools and
 * call test-tool with no further sign-in. `why`: what the card must say the server asked;
 * `register`: whether the app must register dynamically; `registration`: how the connection
 * bar must say the client is known (default: dynamically when it registers);
 * `authorize(query, ui, env)`: checks of the authorization request's query.
 */
function signInAndCall({ present = () => ({ metadataUrl: CIMD_URL }), why, register = true, registration, authorize } = {}) {
  return async (ui, env) => {
    await presentAs(ui, present(env));
    const ask = await askedToSignIn(ui);
    if (!ask.asking) throw new Error(`the page did not ask to sign in: ${ask.error ?? ask.connectError}`);
    ui.check('the card is a first sign-in, not a step-up', !ask.stepUp);
    ui.check('the card says the server answered 401', /\b401\b/.test(ask.why ?? ''), ask.why);
    if (why) ui.check(`the card says what the server asked (${why})`, why.test(ask.why ?? ''), ask.why);
    const round = await signInRound(ui);
    if (round.outcome !== 'signed-in') {
      ui.problems.push(`the sign-in failed: ${round.error}`);
      return;
    }
    ui.check('one authorization request', round.authorize.length === 1, `${round.authorize.length}`);
    const [request] = round.authorize;
    if (request && authorize) authorize(request.query, ui, env);
    if (request) await checkSignedIn(ui, issuerOf(request), registration ?? (register ? 'dynamic' : undefined));
    await listAndCall(ui);
    ui.check('one token request was granted', tokensGranted(ui).length === 1, `${tokensGranted(ui).length}`);
    await checkWireLog(ui, { register });
    ui.check(register ? 'the app registered dynamically' : 'the app did not register dynamically',
      register ? legs(ui, 'register').length > 0 : legs(ui, 'register').length === 0,
      `${legs(ui, 'register').length} registration requests`);
    await checkNoSecretsShown(ui, env.context);
  };
}

/**
 * The scenario asks the app to refuse (`why` matches what the page must say), before the
 * token request; `authorizeReached`: whether the popup must first reach /authorize (the iss
 * checks are on the authorization response); `serverMetadata`: whether the AS metadata is
 * fetched first (not when the PRM already fails). Then "Not now": the waiting request fails
 * with its 401, which the page shows too.
 */
function refusal({ why, what, authorizeReached, noRegistration = false, serverMetadata = true }) {
  return async (ui, env) => {
    ui.expectError(why, what);
    ui.expectError(/401|sign[- ]?in|authori[sz]/i, 'the connect request keeps its 401 after "Not now"');
    ui.expectError(DISCOVER_REFUSED, 'so the tools are not listed');
    await presentAs(ui, { metadataUrl: CIMD_URL });
    const ask = await askedToSignIn(ui);
    let error = ask.error;
    if (ask.asking) {
      const round = await signInRound(ui);
      ui.check('the sign-in is refused', round.outcome === 'refused', round.outcome);
      error = round.error;
    }
    ui.check(`the page says why (${why})`, why.test(error ?? ''), error ?? ask.connectError ?? 'no error shown');
    const authorize = legs(ui, 'authorize').length;
    ui.check(authorizeReached ? 'the popup reached /authorize once' : 'no authorization request',
      authorizeReached ? authorize === 1 : authorize === 0, `${authorize} authorization requests`);
    ui.check('no token request', legs(ui, 'token').length === 0, `${legs(ui, 'token').length}`);
    if (noRegistration) ui.check('no registration request', legs(ui, 'register').length === 0, `${legs(ui, 'register').length}`);
    await checkWireLog(ui, { token: false, serverMetadata });
    await checkNoSecretsShown(ui, env.context);
    const again = ui.page.locator('#sign-in button.sign-in');
    const stays = (await again.count()) > 0 && (await again.isEnabled());
    ui.check('the card stays, to try again', stays);
    if (!stays) return;
    await ui.page.click('#sign-in button.sign-in-dismiss');
    await ui.page.locator('#sign-in').waitFor({ state: 'detached', timeout: 10000 })
      .catch(() => ui.problems.push('the card stayed after "Not now"'));
    const notice = ui.page.locator('.error-notice').first();
    await notice.waitFor({ timeout: 10000 }).catch(() => {});
    const shown = (await notice.count()) > 0 ? (await notice.innerText()).replace(/\s+/g, ' ') : '';
    ui.check('after "Not now" the page shows the 401', /\b401\b/.test(shown), shown || 'no error shown');
  };
}

const issMismatch = /\biss\b|issuer/i;
/** The tools panel's word when the connection's discover was refused (a refusal's aftermath). */
const DISCOVER_REFUSED = /not listed: server\/discover failed/i;

/** The required auth scenarios at 2026-07-28 (25). */
export const authScenarios = {
  'auth/metadata-default': signInAndCall(),
  'auth/metadata-var1': signInAndCall(),
  'auth/metadata-var2': signInAndCall(),
  'auth/metadata-var3': signInAndCall(),

  /** The AS supports CIMD: the typed metadata URL is the client_id, no registration. */
  'auth/basic-cimd': signInAndCall({
    register: false,
    registration: 'metadata',
    authorize(query, ui) {
      ui.check('client_id at /authorize is the metadata document URL', query.client_id === CIMD_URL, query.client_id);
    },
  }),

  'auth/scope-from-www-authenticate': signInAndCall({
    why: /mcp:basic/,
    authorize(query, ui) {
      ui.check('scope has mcp:basic', (query.scope ?? '').split(' ').includes('mcp:basic'), query.scope);
    },
  }),
  'auth/scope-from-scopes-supported': signInAndCall({
    authorize(query, ui) {
      const scope = (query.scope ?? '').split(' ');
      ui.check('scope has all of scopes_supported', ['mcp:basic', 'mcp:read', 'mcp:write'].every((s) => scope.includes(s)), query.scope);
    },
  }),
  'auth/scope-omitted-when-undefined': signInAndCall({
    authorize(query, ui) {
      ui.check('no scope asked', !query.scope, query.scope);
    },
  }),

  /**
   * tools/list passes with mcp:basic; tools/call gets 403 insufficient_scope mcp:write: the
   * card asks for a step-up ("Sign in again"), and the call, sent again, completes.
   */
  async 'auth/scope-step-up'(ui, env) {
    await presentAs(ui, { metadataUrl: CIMD_URL });
    const ask = await askedToSignIn(ui);
    if (!ask.asking) throw new Error(`the page did not ask to sign in: ${ask.error ?? ask.connectError}`);
    ui.check('the card says the server asked mcp:basic', /mcp:basic/.test(ask.why ?? ''), ask.why);
    const first = await signInRound(ui);
    if (first.outcome !== 'signed-in') {
      ui.problems.push(`the sign-in failed: ${first.error}`);
      return;
    }
    const rounds = await listAndCall(ui, {
      max: 1,
      check(state) {
        ui.check('the second card is a step-up', state.stepUp);
        ui.check('the step-up card says 403 and mcp:write', /\b403\b/.test(state.why ?? '') && /mcp:write/.test(state.why ?? ''), state.why);
      },
    });
    ui.check('one step-up was asked', rounds.length === 1, `${rounds.length}`);
    const scope = (rounds[0]?.authorize[0]?.query.scope ?? '').split(' ');
    ui.check('the step-up asks mcp:write and keeps mcp:basic', scope.includes('mcp:write') && scope.includes('mcp:basic'), scope.join(' '));
    const calls = ui.callsOf('test-tool');
    ui.check('the refused call was sent again, the same', calls.length === 2
      && JSON.stringify(calls[0].params) === JSON.stringify(calls[1].params), `${calls.length} calls`);
    await checkSignedIn(ui, issuerOf(first.authorize[0]), 'dynamic');
    await checkNoSecretsShown(ui, env.context);
  },

  /**
   * Every request with a token gets 403 insufficient_scope mcp:admin (410 after 3): the app
   * may sign in again at most twice (3 authorizations), then stops and says why. The driver
   * presses as long as the card asks, up to 5 times, so an app without a bound fails here.
   */
  async 'auth/scope-retry-limit'(ui, env) {
    // Why it stopped: the app's own word that it stops asking after so many step-ups, or,
    // when the mock ends the test first (it answers 410 to the 4th request with a token,
    // and the app sends discovery and the tool list side by side), the server's last
    // refusal on the connection: its 403 insufficient_scope or its 410.
    const limit = /step-ups?|more scope/i;
    const refusal = /\b403\b.*insufficient_scope|\b410\b/i;
    ui.expectError(limit, 'the server never grants mcp:admin: the app stops asking');
    ui.expectError(refusal, 'the refused requests keep their 403 (410 once the mock counted 3)');
    ui.expectError(DISCOVER_REFUSED, 'so the tools are not listed');
    await presentAs(ui, { metadataUrl: CIMD_URL });
    let state = await askedToSignIn(ui);
    ui.check('the card says the server asked mcp:admin', /mcp:admin/.test(state.why ?? ''), state.why);
    let presses = 0;
    while (state.asking && !state.error && presses < 5) {
      presses += 1;
      const round = await signInRound(ui, { label: state.stepUp ? /^Sign in again$/ : /^Sign in$/ });
      if (round.outcome !== 'signed-in') break;
      // Signed in: the request goes again, gets 403, and the page asks for a step-up or gives up.
      const deadline = Date.now() + 10000;
      do {
        await ui.page.waitForTimeout(200);
        state = await signInState(ui.page);
      } while (!(state.asking && !state.progress) && !state.error && !state.connectError && Date.now() < deadline);
    }
    // The last round may end in the refusal itself; the page's final word, once it settled.
    await ui.page.waitForTimeout(1000);
    const authorizations = legs(ui, 'authorize').length;
    ui.log(`${presses} presses, ${authorizations} authorization requests`);
    ui.check('at most 3 authorization requests', authorizations >= 1 && authorizations <= 3, `${authorizations}`);
    const said = (await ui.page.locator('.sign-in-error, .error-notice').allInnerTexts())
      .map((text) => text.replace(/\s+/g, ' ').trim());
    const own = said.some((text) => limit.test(text));
    ui.check('the page says why it stopped asking', own || said.some((text) => refusal.test(text)),
      said.join(' | ') || 'no error shown');
    ui.log(own ? 'the app said it stops asking' : 'the mock ended the test (410) before the app reached its bound');
    await checkNoSecretsShown(ui, env.context);
  },

  'auth/token-endpoint-auth-basic': signInAndCall(),
  'auth/token-endpoint-auth-post': signInAndCall(),
  'auth/token-endpoint-auth-none': signInAndCall(),

  /** No registration endpoint: the context's client id and secret, typed in. */
  'auth/pre-registration': signInAndCall({
    present: ({ context }) => ({ clientId: context.client_id, clientSecret: context.client_secret }),
    register: false,
    registration: 'preRegistered',
    authorize(query, ui, { context }) {
      ui.check('client_id at /authorize is the pre-registered one', query.client_id === context.client_id, query.client_id);
    },
  }),

  'auth/resource-mismatch': refusal({
    why: /resource|evil\.example\.com/i,
    what: 'the PRM names another resource (https://evil.example.com/mcp)',
    authorizeReached: false,
    serverMetadata: false,
  }),

  /**
   * The AS offers offline_access and both CIMD and DCR: `cimd` types the metadata URL (the
   * suite's own client), `dcr` leaves it empty so the app registers and the mock can read
   * grant_types in the registration (the CIMD document is never fetched in time).
   */
  'auth/offline-access-scope': withVariants(['cimd', 'dcr'], (ui, env) => {
    const cimd = (env.variant ?? 'cimd') === 'cimd';
    return signInAndCall({
      present: () => (cimd ? { metadataUrl: CIMD_URL } : {}),
      register: !cimd,
      registration: cimd ? 'metadata' : 'dynamic',
      authorize(query, on) {
        on.check('scope has offline_access', (query.scope ?? '').split(' ').includes('offline_access'), query.scope);
        if (cimd) on.check('client_id is the metadata document URL', query.client_id === CIMD_URL, query.client_id);
      },
    })(ui, env);
  }),
  'auth/offline-access-not-supported': signInAndCall({
    authorize(query, ui) {
      ui.check('no offline_access asked', !(query.scope ?? '').split(' ').includes('offline_access'), query.scope);
    },
  }),

  /**
   * After the first accepted request the PRM names a second AS and the server refuses the
   * first AS's token with 401: the page asks again, and the app registers at the new AS.
   */
  async 'auth/authorization-server-migration'(ui, env) {
    await presentAs(ui, { metadataUrl: CIMD_URL });
    const ask = await askedToSignIn(ui);
    if (!ask.asking) throw new Error(`the page did not ask to sign in: ${ask.error ?? ask.connectError}`);
    const first = await signInRound(ui);
    if (first.outcome !== 'signed-in') {
      ui.problems.push(`the sign-in failed: ${first.error}`);
      return;
    }
    const rounds = await listAndCall(ui, {
      max: 1,
      check(state) {
        ui.check('the second card is a sign-in, not a step-up', !state.stepUp);
      },
    });
    ui.check('the page asked to sign in again once', rounds.length === 1, `${rounds.length}`);
    const [as1, as2] = [first.authorize[0], rounds[0]?.authorize[0]];
    if (!as1 || !as2) return;
    ui.check('the second sign-in went to another AS', issuerOf(as1) !== issuerOf(as2), issuerOf(as2));
    const registeredAt = legs(ui, 'register').map((r) => new URL(r.target).origin);
    ui.check('the app registered at both', registeredAt.includes(new URL(as1.target).origin)
      && registeredAt.includes(new URL(as2.target).origin), registeredAt.join(', '));
    ui.check('the first AS client id is not presented at the second', as2.query.client_id !== as1.query.client_id, as2.query.client_id);
    await checkSignedIn(ui, issuerOf(as2), 'dynamic');
    await checkNoSecretsShown(ui, env.context);
  },

  'auth/iss-supported': signInAndCall(),
  'auth/iss-not-advertised': signInAndCall(),
  'auth/iss-supported-missing': refusal({
    why: /\biss\b/i,
    what: 'the AS advertised iss but the redirect has none',
    authorizeReached: true,
  }),
  'auth/iss-wrong-issuer': refusal({
    why: issMismatch,
    what: 'the redirect names another issuer (https://evil.example.com)',
    authorizeReached: true,
  }),
  'auth/iss-unexpected': refusal({
    why: issMismatch,
    what: 'an iss the AS did not advertise names another issuer',
    authorizeReached: true,
  }),
  'auth/iss-normalized': refusal({
    why: issMismatch,
    what: 'the redirect iss is the issuer with a trailing slash',
    authorizeReached: true,
  }),
  'auth/metadata-issuer-mismatch': refusal({
    why: /issuer|attacker\.example\.com/i,
    what: 'the AS metadata names another issuer (https://attacker.example.com)',
    authorizeReached: false,
    noRegistration: true,
  }),
};

/**
 * The extension scenarios (not scored at 2026-07-28): a sign-in as a user of the app would
 * try it, presenting the context's client id and secret where it has them, then the tools
 * and test-tool. The app only does the authorization-code grant, so most cannot pass; the
 * run reports what the page said (README, "Extensions").
 */
function attempt() {
  return async (ui, env) => {
    const { client_id: clientId, client_secret: clientSecret } = env.context;
    await presentAs(ui, clientId ? { clientId, clientSecret } : { metadataUrl: CIMD_URL });
    const ask = await askedToSignIn(ui);
    if (!ask.asking) {
      ui.problems.push(`the page did not ask to sign in: ${ask.error ?? ask.connectError}`);
      return;
    }
    const round = await signInRound(ui);
    if (round.outcome !== 'signed-in') {
      ui.problems.push(`the sign-in failed: ${round.error}`);
      return;
    }
    await listAndCall(ui);
  };
}

export const extensionScenarios = {
  'auth/client-credentials-jwt': attempt(),
  'auth/client-credentials-basic': attempt(),
  'auth/enterprise-managed-authorization': attempt(),
  'auth/dpop': attempt(),
  'auth/dpop-nonce': attempt(),
  'auth/wif-jwt-bearer': attempt(),
};

/** A driver with named variants (browser-client.mjs checks `--variant` against them). */
function withVariants(variants, drive) {
  drive.variants = variants;
  return drive;
}
