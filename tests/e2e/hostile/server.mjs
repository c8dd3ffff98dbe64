// A loopback MCP server that misbehaves on purpose, one tool per misbehaviour (and `ok`,
// which answers properly). It speaks just enough of 2026-07-28 (server/discover,
// tools/list) for the app to list its tools; every tools/call names the case to play.
// It sends CORS headers, so the app calls it directly.
import { createServer } from 'node:http';
import { gzipSync } from 'node:zlib';

const VERSION = '2026-07-28';
const MiB = 1024 * 1024;
// Over the engine's 8 MiB body limit.
const OVERSIZED = Buffer.alloc(9 * MiB, 'x');
const DEEP = 100_000;
/** Counts past the engine's bounds (see README, "Bounds"). */
const MANY_INPUTS = 10_000;
const PROGRESS_FLOOD = 50_000;
const LONG_ID = 'T'.repeat(100 * 1024);
// 64 MiB of JSON text in 64 KiB on the wire: the browser inflates it before the app reads it.
let gzipBomb;
function bomb() {
  gzipBomb ??= gzipSync(Buffer.concat([
    Buffer.from('{"jsonrpc":"2.0","id":0,"result":{"content":[{"type":"text","text":"'),
    Buffer.alloc(64 * MiB, 'z'),
  ]), { level: 9 });
  return gzipBomb;
}
// One event-stream line of 20 MB that never ends.
const LONG_LINE = Buffer.concat([Buffer.from('data: '), Buffer.alloc(20 * 1000 * 1000, 'w')]);
/** Tasks whose fields break the tasks extension's schema: the case, and the bad fields. */
const MALFORMED_TASKS = {
  task_negative_poll: { pollIntervalMs: -1 },
  task_huge_poll: { pollIntervalMs: 1e308 },
  task_string_poll: { pollIntervalMs: 'soon' },
  task_negative_ttl: { ttlMs: -5000 },
};

/** The cases: the tool's name, and what a client should make of it. */
export const CASES = [
  'ok', 'malformed_json', 'wrong_id', 'oversized', 'endless_body', 'unknown_result_type',
  'unasked_task', 'garbage_sse', 'sse_without_response', 'html_500', 'unauthorized',
  'hang', 'endless_sse', 'deep_json', 'big_number', 'not_json_rpc', 'wrong_content_type',
  'error_without_message', 'huge_error_message', 'xss_text',
  'many_inputs', 'progress_flood', 'gzip_bomb', 'long_sse_line', 'json_as_event_stream',
  'long_task_id', ...Object.keys(MALFORMED_TASKS), 'task_asks_too_much',
];

function tool(name) {
  return {
    name,
    description: `Misbehaves: ${name.replaceAll('_', ' ')}.`,
    inputSchema: { type: 'object', properties: {} },
  };
}

function complete(result) {
  return { resultType: 'complete', ...result };
}

function rpc(id, result) {
  return JSON.stringify({ jsonrpc: '2.0', id, result });
}

const cors = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': '*',
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-expose-headers': '*',
};

/** A task handle, working, with `fields` over the usual ones. */
function task(taskId, fields = {}) {
  return {
    resultType: 'task', taskId, status: 'working',
    createdAt: '2026-12-01T00:00:00Z', lastUpdatedAt: '2026-12-01T00:00:00Z',
    ttlMs: 60000, pollIntervalMs: 200, ...fields,
  };
}

/** `count` form inputs at once, each a yes/no question. */
function inputRequests(count) {
  const requests = {};
  for (let n = 0; n < count; n += 1) {
    requests[`q${n}`] = {
      method: 'elicitation/create',
      params: {
        mode: 'form', message: `Question ${n}?`,
        requestedSchema: { type: 'object', properties: { yes: { type: 'boolean' } } },
      },
    };
  }
  return requests;
}

function send(res, status, type, body, extra = {}) {
  res.writeHead(status, { ...cors, 'content-type': type, ...extra });
  res.end(body);
}

function json(res, body) {
  send(res, 200, 'application/json', body);
}

/** Play `name` for the tools/call with JSON-RPC id `id` (and its `_meta`). */
function play(name, id, res, timers, meta) {
  if (name in MALFORMED_TASKS) {
    return json(res, rpc(id, task(`malformed-${name}`, MALFORMED_TASKS[name])));
  }
  switch (name) {
    case 'many_inputs':
      return json(res, rpc(id, {
        resultType: 'input_required', inputRequests: inputRequests(MANY_INPUTS), requestState: 'opaque',
      }));
    case 'progress_flood': {
      const progressToken = meta?.progressToken ?? 'hostile-progress';
      const lines = [];
      for (let n = 1; n <= PROGRESS_FLOOD; n += 1) {
        lines.push(`data: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":${JSON.stringify(progressToken)},"progress":${n},"total":${PROGRESS_FLOOD}}}\n\n`);
      }
      lines.push(`data: ${rpc(id, complete({ content: [{ type: 'text', text: `After ${PROGRESS_FLOOD} progress notifications.` }] }))}\n\n`);
      return send(res, 200, 'text/event-stream', lines.join(''));
    }
    case 'gzip_bomb':
      return send(res, 200, 'application/json', bomb(), { 'content-encoding': 'gzip' });
    case 'long_sse_line':
      return send(res, 200, 'text/event-stream', LONG_LINE);
    case 'json_as_event_stream':
      return send(res, 200, 'text/event-stream', rpc(id, complete({ content: [{ type: 'text', text: 'JSON, mislabelled' }] })));
    case 'long_task_id':
      return json(res, rpc(id, task(LONG_ID)));
    case 'task_asks_too_much':
      return json(res, rpc(id, task('asks-too-much')));
    case 'ok':
      return json(res, rpc(id, complete({ content: [{ type: 'text', text: 'All fine.' }] })));
    case 'malformed_json':
      return json(res, `{"jsonrpc":"2.0","id":${id},"result":{"content":[`);
    case 'wrong_id':
      return json(res, rpc(id + 1000, complete({ content: [] })));
    case 'oversized':
      res.writeHead(200, { ...cors, 'content-type': 'application/json' });
      res.write(`{"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"text","text":"`);
      res.write(OVERSIZED);
      return res.end('"}]}}');
    case 'endless_body': {
      res.writeHead(200, { ...cors, 'content-type': 'application/json' });
      res.write(`{"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"text","text":"`);
      const piece = Buffer.alloc(256 * 1024, 'y');
      const timer = setInterval(() => res.write(piece), 5);
      timers.add(timer);
      res.on('close', () => { clearInterval(timer); timers.delete(timer); });
      return undefined;
    }
    case 'unknown_result_type':
      return json(res, rpc(id, { resultType: 'mystery', content: [] }));
    case 'unasked_task':
      return json(res, rpc(id, {
        resultType: 'task', taskId: 'not-asked-for', status: 'working',
        createdAt: '2026-12-01T00:00:00Z', lastUpdatedAt: '2026-12-01T00:00:00Z',
        ttlMs: 60000, pollIntervalMs: 1000,
      }));
    case 'garbage_sse':
      return send(res, 200, 'text/event-stream', 'data: {not json at all\n\nevent: x\ndata: ]]]\n\n');
    case 'sse_without_response':
      return send(res, 200, 'text/event-stream',
        'data: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"hi"}}\n\n');
    case 'html_500':
      return send(res, 500, 'text/html',
        '<html><body><h1>Internal Server Error</h1><img src=x onerror="window.__xss=1"><script>window.__xss=1</script></body></html>');
    case 'unauthorized':
      return send(res, 401, 'application/json', '', { 'www-authenticate': 'Bearer realm="hostile", error="invalid_token"' });
    case 'hang':
      // Headers never come; the client's request deadline must end it.
      res.on('close', () => {});
      return undefined;
    case 'endless_sse': {
      res.writeHead(200, { ...cors, 'content-type': 'text/event-stream' });
      const timer = setInterval(() => res.write(': still here\n\n'), 200);
      timers.add(timer);
      res.on('close', () => { clearInterval(timer); timers.delete(timer); });
      return undefined;
    }
    case 'deep_json':
      return json(res, `{"jsonrpc":"2.0","id":${id},"result":{"resultType":"complete","content":[],"structuredContent":{"deep":${'['.repeat(DEEP)}${']'.repeat(DEEP)}}}}`);
    case 'big_number':
      return json(res, `{"jsonrpc":"2.0","id":${id},"result":{"resultType":"complete","content":[{"type":"text","text":"a big number"}],"structuredContent":{"n":1e400}}}`);
    case 'not_json_rpc':
      return json(res, JSON.stringify({ hello: 'world' }));
    case 'wrong_content_type':
      return send(res, 200, 'text/plain', 'plain words, not JSON');
    case 'error_without_message':
      return json(res, JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32000 } }));
    case 'huge_error_message':
      return json(res, JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32000, message: 'E'.repeat(2 * MiB) } }));
    case 'xss_text':
      return json(res, rpc(id, complete({
        content: [{ type: 'text', text: '<img src=x onerror="window.__xss=1"><script>window.__xss=1</script>' }],
      })));
    default:
      return json(res, JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32602, message: `unknown tool ${name}` } }));
  }
}

/** Start the server on a free loopback port; `calls[name]` counts the calls of each case. */
export async function startHostile() {
  const calls = {};
  /** The taskIds of every tasks/cancel received, and how many tasks/get each task had. */
  const cancels = [];
  const polls = {};
  /** Requests received, by method. */
  const methods = {};
  const timers = new Set();
  const server = createServer((req, res) => {
    if (req.method === 'OPTIONS') {
      res.writeHead(204, cors);
      return res.end();
    }
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      let message;
      try {
        message = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return send(res, 400, 'application/json', '{}');
      }
      const { id, method, params } = message;
      methods[method] = (methods[method] ?? 0) + 1;
      if (method === 'server/discover') {
        return json(res, rpc(id, complete({
          supportedVersions: [VERSION], capabilities: { tools: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } }, ttlMs: 0, cacheScope: 'private',
          _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'hostile', version: '0.0.1' } },
        })));
      }
      if (method === 'tools/list') {
        return json(res, rpc(id, complete({ tools: CASES.map(tool), ttlMs: 0, cacheScope: 'private' })));
      }
      if (method === 'tools/call') {
        const name = params?.name ?? '';
        calls[name] = (calls[name] ?? 0) + 1;
        return play(name, id, res, timers, params?._meta);
      }
      if (method === 'tasks/get') {
        const taskId = params?.taskId ?? '';
        polls[taskId] = (polls[taskId] ?? 0) + 1;
        // Past its first poll, the task asks for more inputs at once than a client shows.
        return json(res, rpc(id, {
          ...task(taskId), resultType: 'complete', status: 'input_required',
          inputRequests: inputRequests(MANY_INPUTS),
        }));
      }
      if (method === 'tasks/cancel') {
        cancels.push(params?.taskId ?? '');
        return json(res, rpc(id, { resultType: 'complete' }));
      }
      return json(res, JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32601, message: 'not here' } }));
    });
  });
  await new Promise((resolveListen) => server.listen(0, '127.0.0.1', resolveListen));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    calls,
    cancels,
    polls,
    methods,
    stop() {
      for (const timer of timers) clearInterval(timer);
      server.closeAllConnections();
      server.close();
    },
  };
}
