// The keychain call's child process (src/config/keychain.ts): one call to the @napi-rs/keyring binding, asked
// for as JSON on stdin and answered as JSON on stdout. Plain CommonJS, copied beside the bundle, so that the
// same file runs beside src/config/keychain.ts and beside dist/cli.cjs; a standalone executable, which
// cannot run a file of its own, runs `serve` in itself with the binding it carries.
'use strict';

/** Answers the call on stdin with the Entry class that `load(request)` gives. */
async function serve(load) {
  let input = '';
  for await (const chunk of process.stdin) input += String(chunk);
  let reply;
  try {
    const request = JSON.parse(input);
    const Entry = await load(request);
    const entry = new Entry(request.service, request.account, { linux: { store: 'secret-service' } });
    let value = null;
    if (request.op === 'get') value = entry.getPassword();
    else if (request.op === 'set') entry.setPassword(request.secret);
    else value = entry.deletePassword();
    reply = { ok: true, value };
  } catch (error) {
    reply = { ok: false, message: String((error && error.message) || error) };
  }
  process.stdout.write(JSON.stringify(reply));
}

module.exports = { serve };
if (require.main === module) void serve(async (request) => (await import(request.moduleUrl)).Entry);
