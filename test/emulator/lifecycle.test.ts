import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { exposureWarning, startEmulator } from '../../src/emulator/server.js';
import { call, createMonitor, raw, waitForRequests } from './helpers.js';

describe('exposureWarning: whether the bound address reaches beyond this machine', () => {
  it.each(['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1'])('%s is loopback: no warning', (address) => {
    expect(exposureWarning(address)).toBeUndefined();
  });
  it.each(['0.0.0.0', '::', '192.168.1.10', '10.0.0.1', 'fe80::1', '::ffff:10.0.0.1'])(
    '%s is warned about',
    (address) => {
      expect(exposureWarning(address)).toBe(
        `listening on ${address}, which other machines can reach: the emulator's test tokens are published (docs/emulator.md), so anyone who connects has full access; use --host 127.0.0.1 unless the network is yours alone`,
      );
    },
  );
});

describe('startEmulator / close', () => {
  it('exposes url, baseUrl, token and a random admin secret', async () => {
    const a = await startEmulator({ port: 0 });
    const b = await startEmulator({ port: 0 });
    try {
      expect(a.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(a.address).toBe('127.0.0.1');
      expect(a.baseUrl).toBe(`${a.url}/v1`);
      expect(a.token).toBe('cpk_dev_emulator_token');
      expect(a.adminSecret).toMatch(/^[0-9a-f]{24}$/);
      expect(a.adminSecret).not.toBe(b.adminSecret);
      expect(a.url).not.toBe(b.url);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('close() resolves while a request hangs, and the client sees the connection end', async () => {
    const emu = await startEmulator({ port: 0 });
    emu.injectFault({ kind: 'hang' });
    const hanging = raw(emu, 'GET', '/v1/reports/rpt_summary', { authorization: `Bearer ${emu.token}` });
    await waitForRequests(emu, 1);
    await emu.close();
    const res = await hanging;
    expect(res.status).toBeUndefined();
    expect(res.error).toBe('ECONNRESET');
    await emu.close(); // idempotent
  });

  it('close() cancels a pending delay and keep-alive connections', async () => {
    const emu = await startEmulator({ port: 0 });
    expect((await call(emu, 'GET', 'reports/rpt_summary')).status).toBe(200); // leaves a keep-alive socket
    emu.injectFault({ status: 500, delayMs: 600_000 });
    const delayed = fetch(`${emu.baseUrl}/reports/rpt_summary`, {
      headers: { authorization: `Bearer ${emu.token}` },
    }).then(
      (res) => res.status,
      () => 'connection closed',
    );
    await waitForRequests(emu, 2);
    await emu.close();
    expect(await delayed).toBe('connection closed');
    await expect(fetch(`${emu.url}/v1/openapi.json`)).rejects.toThrow();
  });

  it('an injected random makes monitor ids deterministic', async () => {
    const ids: string[] = [];
    for (let run = 0; run < 2; run++) {
      let n = 0;
      const emu = await startEmulator({ port: 0, random: () => ((n++ * 7) % 32) / 32 });
      try {
        ids.push((await createMonitor(emu, { name: 'a' })).id, (await createMonitor(emu, { name: 'b' })).id);
      } finally {
        await emu.close();
      }
    }
    // Character i of the suffix is ID_ALPHABET[(7 * i) % 32].
    expect(ids[0]).toBe('mon_ahov4dkry7gn');
    expect(ids.slice(0, 2)).toEqual(ids.slice(2));
    expect(ids[0]).not.toBe(ids[1]);
  });

  it('a constant random does not loop forever: ids stay unique', async () => {
    const emu = await startEmulator({ port: 0, random: () => 0 });
    try {
      const a = await createMonitor(emu, { name: 'a' });
      const b = await createMonitor(emu, { name: 'b' });
      expect(a.id).toBe('mon_aaaaaaaaaaaa');
      expect(b.id).toMatch(/^mon_[a-z2-7]{12}$/);
      expect(b.id).not.toBe(a.id);
    } finally {
      await emu.close();
    }
  });

  it('every response carries an X-Request-Id equal to the error body request_id', async () => {
    const emu = await startEmulator({ port: 0 });
    try {
      const seen = new Set<string>();
      for (const [method, path, token] of [
        ['GET', 'openapi.json', null],
        ['GET', 'reports/rpt_summary', undefined],
        ['GET', 'monitors/nope', undefined],
        ['GET', 'reports/rpt_summary', null],
        ['GET', '/', null],
        ['GET', '/__emulator/requests', null],
      ] as const) {
        const res = await call(emu, method, path, { token });
        const id = res.headers.get('x-request-id') ?? '';
        expect(id).toMatch(/^req_[0-9a-f]{16}$/);
        if (res.status >= 400) expect(res.json.request_id).toBe(id);
        seen.add(id);
      }
      expect(seen.size).toBe(6);
    } finally {
      await emu.close();
    }
  });

  it('answers an unparseable request with a JSON 400 and X-Request-Id', async () => {
    const emu = await startEmulator({ port: 0 });
    try {
      const { hostname, port } = new URL(emu.url);
      const response = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), hostname, () => socket.end('THIS IS NOT HTTP\r\n\r\n'));
        let data = '';
        socket.on('data', (c: Buffer) => (data += c.toString('utf8')));
        socket.on('end', () => resolve(data));
        socket.on('error', reject);
      });
      const [head = '', body = ''] = response.split('\r\n\r\n');
      expect(head.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
      const requestId = /X-Request-Id: (req_[0-9a-f]{16})/.exec(head)?.[1];
      expect(JSON.parse(body)).toEqual({ error: 'malformed HTTP request', request_id: requestId });
    } finally {
      await emu.close();
    }
  });
});
