import { createConnection, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy on a free loopback port in front of `target`, which a test can cut
 * (every open connection reset, new ones reset at once: the server looks down) and
 * restore. Stands in for stopping a server the test does not own, such as the
 * shared PostgreSQL.
 */
export class TcpProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private cut = false;
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async start(): Promise<number> {
    this.server = createServer((client) => this.accept(client));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
    return this.port;
  }

  /** Resets every connection and refuses new ones until `restore()`. */
  cutOff(): void {
    this.cut = true;
    for (const s of this.sockets) s.resetAndDestroy();
    this.sockets.clear();
  }

  restore(): void {
    this.cut = false;
  }

  /** Connections open through the proxy (both sides counted once). */
  get connections(): number {
    return this.sockets.size / 2;
  }

  async close(): Promise<void> {
    this.cutOff();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private accept(client: Socket): void {
    if (this.cut) {
      client.on('error', () => {});
      client.resetAndDestroy();
      return;
    }
    const upstream = createConnection(this.target);
    this.sockets.add(client);
    this.sockets.add(upstream);
    const drop = () => {
      this.sockets.delete(client);
      this.sockets.delete(upstream);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
  }
}
