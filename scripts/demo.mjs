#!/usr/bin/env node
// `npm run demo`: a real walkthrough. Starts `cpk emulator` on a free loopback
// port and drives the built CLI against it, printing each command as a user
// would type it. Nothing leaves this machine.
import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../bin/cpk.js', import.meta.url));
const emulator = spawn(process.execPath, [bin, 'emulator', '--port', '0', '--json', '--quiet'], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const first = await new Promise((resolve, reject) => {
  createInterface({ input: emulator.stdout }).once('line', resolve);
  emulator.once('exit', (code) => reject(new Error(`the emulator exited with ${code}`)));
});
const { base_url: baseUrl, token } = JSON.parse(first);
// The walkthrough shows what a person sees, even when an agent runs it (agent mode: docs/agents.md).
const env = { ...process.env, CPK_BASE_URL: baseUrl, CPK_TOKEN: token, CPK_AGENT: '0' };
const bold = (s) => (process.stdout.isTTY && !process.env.NO_COLOR ? `\u001b[1m${s}\u001b[0m` : s);

/** The demo's own lines fit a terminal of 80 columns. */
const WIDTH = 80;

/** Words in lines of at most WIDTH - 2 characters (room for `# ` or a ` \`), the first after `first`. */
function fold(words, first = '', indent = '') {
  const lines = [first];
  for (const word of words) {
    const last = lines.length - 1;
    if (lines[last].length + word.length + 1 > WIDTH - 2 && lines[last].trim()) lines.push(`${indent}${word}`);
    else lines[last] = lines[last] ? `${lines[last]} ${word}` : word;
  }
  return lines;
}

const say = (text) =>
  console.log(
    `\n${fold(text.split(' '), '#')
      .map(bold)
      .join('\n# ')
      .replace(/\n# /g, `\n${bold('#')} `)}`,
  );

/** Shows and runs `cpk ...args`; returns its stdout when capture is set. */
function cpk(args, { capture = false, expect = 0 } = {}) {
  // As a person would type a long one: continued with a backslash, so every line fits.
  const quoted = args.map((a) => (/[\s"'{}]/.test(a) ? `'${a}'` : a));
  // A flag stays on the line of its value.
  const words = [];
  for (let i = 0; i < quoted.length; i++)
    words.push(
      quoted[i].startsWith('-') && quoted[i + 1] && !quoted[i + 1].startsWith('-')
        ? `${quoted[i]} ${quoted[++i]}`
        : quoted[i],
    );
  console.log(bold(fold(words, '$ cpk', '    ').join(' \\\n')));
  const result = spawnSync(process.execPath, [bin, ...args], {
    env,
    stdio: ['ignore', capture ? 'pipe' : 'inherit', 'inherit'],
    encoding: 'utf8',
  });
  if (capture) process.stdout.write(result.stdout);
  if (result.status !== 0) console.log(`(exit code ${result.status})`);
  if (result.status !== expect) throw new Error(`demo step failed: expected exit ${expect}, got ${result.status}`);
  return result.stdout;
}

try {
  say(`The emulator is running at ${baseUrl}; this demo uses its development token through CPK_TOKEN.`);
  say('Create a monitor: people get a table');
  cpk([
    'monitors',
    'create',
    '--name',
    'Checkout API',
    '--type',
    'http',
    '--target',
    'https://shop.example.com/health',
    '--interval',
    '1m',
  ]);

  say('Scripts take the id alone with -q');
  const id = cpk(
    ['monitors', 'create', '--name', 'Search API', '--target', 'https://search.example.com/health', '-q'],
    { capture: true },
  ).trim();

  say('Show it (the emulator ran its first simulated check)');
  cpk(['monitors', 'get', id]);

  say('The same as exact JSON, for scripts');
  const detail = JSON.parse(cpk(['monitors', 'get', id, '--json'], { capture: true }));

  say('Change only what you name: the interval and a custom nested field');
  cpk(['monitors', 'update', id, '--interval', '5m', '--set-string', 'notify.email=ops@example.com']);

  if (typeof detail.report_id === 'string') {
    say("Read the monitor's report");
    cpk(['reports', 'get', detail.report_id]);
  }

  say('Change a channel setting');
  cpk(['channels', 'update', 'ch_ops', '--set', 'enabled=false', '--json']);

  say('Errors are one line with the request id, and a documented exit code (6: not found)');
  cpk(['monitors', 'get', 'mon_doesnotexist'], { expect: 6 });

  say('The server judges the rules: an invalid interval is rejected (exit 7)');
  cpk(['monitors', 'update', id, '--interval', '5'], { expect: 7 });

  say('Delete (scripts pass --yes; a terminal would be asked)');
  cpk(['monitors', 'delete', id, '--yes', '--json']);

  say(
    "Done. Try it yourself, as the README's Quick start does: `cpk emulator` in one terminal, then " +
      '`export CPK_TOKEN=cpk_dev_emulator_token` in another (cpk talks to the emulator at its default address).',
  );
} catch (error) {
  console.error(error.message);
  process.exitCode = 1;
} finally {
  emulator.kill('SIGTERM');
}
