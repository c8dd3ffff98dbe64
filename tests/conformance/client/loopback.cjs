// Preloaded (`node --require`) into the conformance suite: its mock servers call
// `listen(0)` with no host, which binds every interface. This rebinds such listens to
// 127.0.0.1 through a handle bound synchronously, so `server.address()` right after
// `listen()` still reports the real port (a host string would make the bind asynchronous
// and the suite would print `http://localhost:0`). Listens that name a host, a path or a
// handle are left alone.
'use strict';
const net = require('node:net');
// eslint-disable-next-line n/no-deprecated-api -- the one synchronous way to pre-bind
const { TCP, constants } = process.binding('tcp_wrap');

const listen = net.Server.prototype.listen;

/** The port of a host-less TCP listen call, and the arguments after it; else null. */
function hostless(args) {
  const [first, second] = args;
  if (args.length === 0 || typeof first === 'function') return { port: 0, rest: args };
  if (typeof first === 'number' || (typeof first === 'string' && /^\d+$/.test(first))) {
    if (typeof second === 'string') return null; // listen(port, host, ...)
    return { port: Number(first), rest: args.slice(1) };
  }
  if (first && typeof first === 'object' && !(first instanceof TCP)
      && first.host === undefined && first.path === undefined && first.fd === undefined
      && first.handle === undefined && first._handle === undefined) {
    const rest = args.slice(1);
    if (first.backlog !== undefined) rest.unshift(first.backlog);
    return { port: Number(first.port ?? 0), rest };
  }
  return null;
}

net.Server.prototype.listen = function loopbackListen(...args) {
  const call = hostless(args);
  if (!call) return listen.apply(this, args);
  const handle = new TCP(constants.SERVER);
  const failed = handle.bind('127.0.0.1', call.port);
  if (failed) {
    handle.close();
    return listen.call(this, call.port, '127.0.0.1', ...call.rest);
  }
  return listen.call(this, handle, ...call.rest);
};
