import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort, onFreePort, PortTakenError } from '../src/free-port.js';

const ephemeralFrom = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').split(/\s+/)[0]);

const listen = (port: number) =>
  new Promise<Server>((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(port, '127.0.0.1', () => resolve(srv));
  });
const close = (srv: Server) => new Promise<void>((r) => srv.close(() => r()));

describe('freePort', () => {
  it('hands out bindable ports below the OS ephemeral range, never the same one twice', async () => {
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    expect(new Set(ports).size).toBe(20);
    for (const p of ports) {
      expect(p).toBeGreaterThanOrEqual(10_000);
      expect(p).toBeLessThan(ephemeralFrom);
      await close(await listen(p));
    }
  });

  it('with alsoFree, the port and each offset are free, all below the ephemeral range', async () => {
    for (let i = 0; i < 20; i++) {
      const p = await freePort({ alsoFree: [10_000] });
      expect(p + 10_000).toBeLessThan(ephemeralFrom);
      await close(await listen(p));
      await close(await listen(p + 10_000));
    }
  });
});

describe('onFreePort', () => {
  it('starts again on another port when the start finds its port taken', async () => {
    const tried: number[] = [];
    const port = await onFreePort(async (p) => {
      tried.push(p);
      if (tried.length < 3) throw new PortTakenError(`port ${p} taken`);
      return p;
    });
    expect(tried).toHaveLength(3);
    expect(new Set(tried).size).toBe(3);
    expect(port).toBe(tried[2]);
  });

  it('rethrows any other failure at once, and a taken port after the last attempt', async () => {
    let calls = 0;
    await expect(
      onFreePort(async () => {
        calls++;
        throw new Error('bad config');
      }),
    ).rejects.toThrow('bad config');
    expect(calls).toBe(1);
    await expect(
      onFreePort(
        async (p) => {
          throw new PortTakenError(`port ${p} taken`);
        },
        { attempts: 2 },
      ),
    ).rejects.toBeInstanceOf(PortTakenError);
  });
});
