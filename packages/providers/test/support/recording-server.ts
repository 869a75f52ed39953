import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

/** A request as a fake provider saw it. */
export type Recorded = {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON the adapter sent
  body: any;
  at: number;
};

export type Reply = { status: number; body?: unknown; headers?: Record<string, string> } | 'hang';

/**
 * A local HTTP server standing in for a provider's API: records every request
 * and answers with what the test's handler says ('hang' never answers, for
 * timeouts).
 */
export class RecordingServer {
  readonly requests: Recorded[] = [];
  url = '';
  private readonly server: Server;

  constructor(private handler: (req: Recorded) => Reply | Promise<Reply>) {
    this.server = createServer((req, res) => {
      let raw = '';
      req.on('data', (d) => {
        raw += String(d);
      });
      req.on('end', async () => {
        const url = new URL(req.url ?? '/', 'http://localhost');
        // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON the adapter sent
        let body: any = null;
        try {
          body = raw ? JSON.parse(raw) : null;
        } catch {
          body = raw;
        }
        const recorded: Recorded = {
          method: req.method ?? '',
          path: url.pathname,
          query: Object.fromEntries(url.searchParams),
          headers: req.headers,
          body,
          at: Date.now(),
        };
        this.requests.push(recorded);
        const reply = await this.handler(recorded);
        if (reply === 'hang') return;
        res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
        res.end(reply.body === undefined ? '' : JSON.stringify(reply.body));
      });
    });
  }

  /** Replaces how the server answers from now on. */
  respond(handler: (req: Recorded) => Reply | Promise<Reply>): void {
    this.handler = handler;
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const address = this.server.address() as { port: number };
    this.url = `http://127.0.0.1:${address.port}`;
    return this.url;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
