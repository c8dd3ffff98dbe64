// A third-party MCP 2026-07-28 peer written on the official TypeScript SDK v2:
// @modelcontextprotocol/server 2.4.0 (`createMcpHandler`, `inputRequired`, the HMAC
// request-state codec) served by @modelcontextprotocol/node 2.1.2's `toNodeHandler`.
//
//   PORT=3100 node tests/peers/ts/server.mjs      # http://127.0.0.1:3100/mcp (PORT=0: any)
//
// Loopback only, and no CORS (as the SDK ships it): a page reaches it through holdbay's
// relay. What it serves (each MRTR retry carries only the current round's answers; the
// state is signed by the SDK's codec and bound to the method):
// - tools: `echo(message)` (plain); `confirm_action(action)` (one MRTR round, a form);
//   `plan_trip(destination)` (two MRTR rounds: dates, then a budget); `link_account(service)`
//   (URL-mode elicitation: consent on this server's own page /consent/<id>);
// - prompt `release_notes(version)`: prompts/get asks for the tone first (MRTR);
// - resources: `peer://readme` (text), `peer://logo.png` (blob), and the template
//   `peer://reports/{quarter}`, whose resources/read asks to confirm access first (MRTR).
import { createServer } from 'node:http';
import { randomBytes, randomUUID } from 'node:crypto';
import {
  McpServer,
  ResourceTemplate,
  acceptedContent,
  createMcpHandler,
  createRequestStateCodec,
  inputRequired,
} from '@modelcontextprotocol/server';
import { localhostHostValidation, toNodeHandler } from '@modelcontextprotocol/node';
import * as z from 'zod';

const HOST = '127.0.0.1'; // loopback only, never another interface
const requestedPort = Number(process.env.PORT ?? 3100);

// A fresh key per process: one process serves every round of a flow here.
const codec = createRequestStateCodec({
  key: randomBytes(32),
  ttlSeconds: 600,
  bind: (ctx) => ctx.mcpReq.method,
});

/** Consent pages opened by link_account: id -> { service, answer: 'allowed' | 'denied' | null }. */
const consents = new Map();
let origin = '';

const text = (value) => ({ content: [{ type: 'text', text: value }] });
const form = (message, properties, required) =>
  inputRequired.elicit({ message, requestedSchema: { type: 'object', properties, required } });
/** The answer to `key` in this round: { action, content }, or undefined. */
const answerTo = (ctx, key) => ctx.mcpReq.inputResponses?.[key];
/** The verified state of this round, when it belongs to `owner`. */
function stateOf(ctx, owner) {
  const state = ctx.mcpReq.requestState();
  return state && state.owner === owner ? state : undefined;
}

function build() {
  const server = new McpServer(
    { name: 'holdbay-ts-peer', version: '2.4.0' },
    { requestState: { verify: codec.verify } },
  );

  server.registerTool(
    'echo',
    { description: 'Echo the message back unchanged.', inputSchema: z.object({ message: z.string() }) },
    async ({ message }) => text(message),
  );

  server.registerTool(
    'confirm_action',
    {
      description: 'Ask (one MRTR round, a form) to confirm the action, then report.',
      inputSchema: z.object({ action: z.string() }),
    },
    async ({ action }, ctx) => {
      const state = stateOf(ctx, `confirm_action:${action}`);
      const answer = answerTo(ctx, 'confirm');
      if (!state || !answer) {
        return inputRequired({
          inputRequests: {
            confirm: form(`Confirm action: ${action}?`, {
              confirm: { type: 'boolean', title: 'Confirm' },
            }, ['confirm']),
          },
          requestState: await codec.mint({ owner: `confirm_action:${action}`, round: 1 }, ctx),
        });
      }
      if (answer.action !== 'accept') return text(`confirm_action(${action}): not done, user chose ${answer.action}`);
      const confirmed = acceptedContent(ctx.mcpReq.inputResponses, 'confirm')?.confirm;
      return text(`confirm_action(${action}): confirm=${confirmed} (state of round ${state.round} verified)`);
    },
  );

  server.registerTool(
    'plan_trip',
    {
      description: 'Two MRTR rounds: the dates, then a budget; then the plan.',
      inputSchema: z.object({ destination: z.string() }),
    },
    async ({ destination }, ctx) => {
      const owner = `plan_trip:${destination}`;
      const state = stateOf(ctx, owner);
      if (state?.round === 1) {
        const dates = answerTo(ctx, 'dates');
        if (dates?.action !== 'accept') return text(`No trip to ${destination}: ${dates?.action ?? 'no answer'}`);
        const chosen = acceptedContent(ctx.mcpReq.inputResponses, 'dates')?.dates;
        return inputRequired({
          inputRequests: {
            budget: form(`Budget for ${destination} (${chosen}), in euros?`, {
              budget: { type: 'integer', title: 'Budget (EUR)', minimum: 100 },
            }, ['budget']),
          },
          requestState: await codec.mint({ owner, round: 2, dates: chosen }, ctx),
        });
      }
      if (state?.round === 2) {
        const budget = answerTo(ctx, 'budget');
        if (budget?.action !== 'accept') return text(`No trip to ${destination}: ${budget?.action ?? 'no answer'}`);
        const amount = acceptedContent(ctx.mcpReq.inputResponses, 'budget')?.budget;
        return text(`Trip to ${destination} on ${state.dates} within ${amount} EUR (planned in 2 rounds)`);
      }
      return inputRequired({
        inputRequests: {
          dates: form(`When do you travel to ${destination}?`, {
            dates: { type: 'string', title: 'Dates' },
          }, ['dates']),
        },
        requestState: await codec.mint({ owner, round: 1 }, ctx),
      });
    },
  );

  server.registerTool(
    'link_account',
    {
      description: 'URL-mode elicitation: consent on this server\'s own page; no secret passes the client.',
      inputSchema: z.object({ service: z.string() }),
    },
    async ({ service }, ctx) => {
      const state = stateOf(ctx, `link_account:${service}`);
      const answer = answerTo(ctx, 'consent');
      if (state && answer) {
        const consent = consents.get(state.consent);
        if (answer.action !== 'accept') return text(`Not linked: you chose ${answer.action}`);
        if (consent?.answer === 'allowed') return text(`Linked your ${service} account`);
        return text(`Not linked: the consent page says ${consent?.answer ?? 'nothing yet'}`);
      }
      const id = randomUUID();
      consents.set(id, { service, answer: null });
      return inputRequired({
        inputRequests: {
          consent: inputRequired.elicitUrl({
            message: `Sign in to ${service} on its own page to link it`,
            url: `${origin}/consent/${id}`,
          }),
        },
        requestState: await codec.mint({ owner: `link_account:${service}`, consent: id }, ctx),
      });
    },
  );

  server.registerPrompt(
    'release_notes',
    {
      description: 'Release notes for a version; asks for the tone first (MRTR on prompts/get).',
      argsSchema: z.object({ version: z.string() }),
    },
    async ({ version }, ctx) => {
      const state = stateOf(ctx, `release_notes:${version}`);
      const answer = answerTo(ctx, 'tone');
      if (!state || !answer) {
        return inputRequired({
          inputRequests: {
            tone: form(`Which tone for the ${version} notes?`, {
              tone: { type: 'string', title: 'Tone', enum: ['formal', 'casual'] },
            }, ['tone']),
          },
          requestState: await codec.mint({ owner: `release_notes:${version}` }, ctx),
        });
      }
      const tone = acceptedContent(ctx.mcpReq.inputResponses, 'tone')?.tone ?? 'plain';
      return {
        description: `Release notes for ${version}`,
        messages: [
          { role: 'user', content: { type: 'text', text: `Write ${tone} release notes for version ${version}.` } },
        ],
      };
    },
  );

  server.registerResource(
    'readme',
    'peer://readme',
    { title: 'Peer README', description: 'A static text resource.', mimeType: 'text/markdown' },
    async (uri) => ({
      contents: [{ uri: uri.href, mimeType: 'text/markdown', text: '# holdbay TS peer\n\nServed by @modelcontextprotocol/server 2.4.0.\n' }],
    }),
  );

  server.registerResource(
    'logo',
    'peer://logo.png',
    { title: 'Peer logo', description: 'A static blob resource (a 1×1 PNG).', mimeType: 'image/png' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'image/png', blob: ONE_PIXEL_PNG }] }),
  );

  server.registerResource(
    'quarterly_report',
    new ResourceTemplate('peer://reports/{quarter}', { list: undefined }),
    {
      title: 'Quarterly report',
      description: 'Reading asks to confirm access first (MRTR on resources/read).',
      mimeType: 'text/plain',
    },
    async (uri, { quarter }, ctx) => {
      const state = stateOf(ctx, `report:${uri.href}`);
      const answer = answerTo(ctx, 'access');
      if (!state || !answer) {
        return inputRequired({
          inputRequests: {
            access: form(`Open the confidential report for ${quarter}?`, {
              access: { type: 'boolean', title: 'Allow access' },
            }, ['access']),
          },
          requestState: await codec.mint({ owner: `report:${uri.href}` }, ctx),
        });
      }
      const allowed = answer.action === 'accept'
        && acceptedContent(ctx.mcpReq.inputResponses, 'access')?.access === true;
      const body = allowed ? `Report ${quarter}: revenue up 12 %.` : `Report ${quarter}: access not confirmed.`;
      return { contents: [{ uri: uri.href, mimeType: 'text/plain', text: body }] };
    },
  );

  return server;
}

const ONE_PIXEL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** The consent page of link_account: Allow or Deny, recorded for the tool's retry. */
function consentPage(req, res, id) {
  const consent = consents.get(id);
  if (!consent) {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('No such consent request');
    return;
  }
  const page = (body) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><meta charset="utf-8"><title>Link ${escapeHtml(consent.service)}</title>${body}`);
  };
  if (req.method === 'POST') {
    let body = '';
    req.on('data', (chunk) => { body += chunk; });
    req.on('end', () => {
      consent.answer = new URLSearchParams(body).get('answer') === 'allow' ? 'allowed' : 'denied';
      page(`<p>You ${consent.answer} linking ${escapeHtml(consent.service)}. You can close this page.</p>`);
    });
    return;
  }
  page(`<h1>Link ${escapeHtml(consent.service)}?</h1>
<form method="post"><button name="answer" value="allow">Allow</button>
<button name="answer" value="deny">Deny</button></form>`);
}

function escapeHtml(value) {
  return String(value).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const handler = createMcpHandler(build, {
  onerror: (error) => console.error(`peer: ${error.message}`),
});
const serveMcp = toNodeHandler(handler);
const validateHost = localhostHostValidation();

const http = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const consent = url.pathname.match(/^\/consent\/([\w-]+)$/);
  if (consent) return consentPage(req, res, consent[1]);
  if (url.pathname !== '/mcp') return res.writeHead(404).end();
  if (!validateHost(req, res)) return undefined;
  return serveMcp(req, res);
});
http.listen(requestedPort, HOST, () => {
  const { port } = http.address();
  origin = `http://${HOST}:${port}`;
  console.log(`holdbay TS peer (@modelcontextprotocol/server 2.4.0) listening on ${origin}/mcp`);
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    handler.close().finally(() => http.close(() => process.exit(0)));
  });
}
