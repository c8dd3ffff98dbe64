// A loopback MCP server whose tool names lie: `ok_echo` is real, and four others draw like it
// or like something else (a zero-width space inside, a zero-width joiner at the end, a
// right-to-left override that draws `evil_tool` as "loot_live", a Cyrillic `е`). It speaks
// just enough of 2026-07-28 (server/discover, tools/list, tools/call) and records the exact
// name each tools/call asked for, and its Mcp-Name header. CORS headers: the app calls it
// directly.
import { createServer } from 'node:http';

const VERSION = '2026-07-28';

/** The tools, by their real names. */
export const NAMES = {
  real: 'ok_echo',
  zeroWidth: 'ok_\u200Becho',
  trailingJoiner: 'ok_echo\u200D',
  override: '\u202Eevil_tool',
  cyrillic: 'ok_\u0435cho',
};

const cors = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': '*',
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-expose-headers': '*',
};

function answer(res, id, result) {
  res.writeHead(200, { ...cors, 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', id, result: { resultType: 'complete', ...result } }));
}

/** Each name's code points, so a result says which tool ran without hiding anything. */
function codePoints(name) {
  return [...name].map((c) => `U+${c.codePointAt(0).toString(16).toUpperCase().padStart(4, '0')}`).join(' ');
}

/** Start the server on a free loopback port; `calls` lists each tools/call's name and header. */
export async function startNamesServer() {
  const calls = [];
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
        res.writeHead(400, cors);
        return res.end();
      }
      const { id, method, params } = message;
      if (method === 'server/discover') {
        return answer(res, id, {
          supportedVersions: [VERSION], capabilities: { tools: {} }, ttlMs: 0, cacheScope: 'private',
          _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'names', version: '0.0.1' } },
        });
      }
      if (method === 'tools/list') {
        const tools = Object.values(NAMES).map((name) => ({
          name, description: 'Says which tool ran.', inputSchema: { type: 'object', properties: {} },
        }));
        return answer(res, id, { tools, ttlMs: 0, cacheScope: 'private' });
      }
      if (method === 'tools/call') {
        const name = params?.name ?? '';
        calls.push({ name, header: req.headers['mcp-name'] ?? null });
        return answer(res, id, { content: [{ type: 'text', text: `ran ${codePoints(name)}` }] });
      }
      res.writeHead(200, { ...cors, 'content-type': 'application/json' });
      return res.end(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32601, message: 'not here' } }));
    });
  });
  await new Promise((resolveListen) => server.listen(0, '127.0.0.1', resolveListen));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    calls,
    stop() {
      server.closeAllConnections();
      server.close();
    },
  };
}
