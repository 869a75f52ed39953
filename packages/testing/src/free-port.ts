import { createServer } from 'node:net';

/**
 * A TCP port on loopback that is free right now, for a server a test must name
 * before it starts (a public URL, a child process's port). Another process could
 * take it in between; on a test machine that is rare enough.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}
