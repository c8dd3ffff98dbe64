// Preload (node --require ./loopback.cjs): every server that listens on a port without naming
// a host listens on 127.0.0.1 instead of all interfaces. server-everything calls
// `app.listen(PORT)` and has no host option; nothing in these tests may be reachable from
// another machine.
'use strict';
const net = require('node:net');

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function loopbackListen(...args) {
  const [first, second] = args;
  if (first !== null && typeof first === 'object' && !Array.isArray(first)) {
    if (first.port !== undefined && first.host === undefined && first.path === undefined) {
      args[0] = { ...first, host: '127.0.0.1' };
    }
  } else if (typeof first === 'number' || (typeof first === 'string' && /^\d+$/.test(first))) {
    if (typeof second !== 'string') {
      args.splice(1, 0, '127.0.0.1');
    }
  }
  return listen.apply(this, args);
};
