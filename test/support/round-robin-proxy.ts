import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';

/** One request the proxy got a 2xx for: when the client was answered, and its body. */
export type Acknowledged = { at: number; path: string; body: string; backend: number };

/**
 * An HTTP load balancer on a free loopback port in front of several replicas of one
 * service (the ingest replicas behind one webhook URL, as a deployment puts them
 * behind one): each request goes to the next backend in turn; a backend that
 * refuses the connection (killed, restarting) is skipped for the next one. A
 * request that dies on its way (the backend was killed mid-request) gets a 502,
 * so the caller retries, as it would behind a real balancer.
 *
 * It keeps every 2xx it passed back with the moment it did (`acknowledged`), which
 * is when the caller learnt its request was acknowledged: the reply fence's clock.
 */
export class RoundRobinProxy {
  private server: Server | null = null;
  private next = 0;
  readonly acknowledged: Acknowledged[] = [];
  /** Requests answered by each backend, by index. */
  readonly served: number[];
  /** Connections each backend refused (nothing listening), by index. */
  readonly refused: number[];
  /** Requests that died on their way to or from each backend (reset, hang-up), by index, with the last error. */
  readonly broken: number[];
  readonly lastError: (string | undefined)[];
  port = 0;

  constructor(private readonly backends: { host: string; port: number }[]) {
    this.served = backends.map(() => 0);
    this.refused = backends.map(() => 0);
    this.broken = backends.map(() => 0);
    this.lastError = backends.map(() => undefined);
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<number> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
    return this.port;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const first = this.next++ % this.backends.length;
    for (let i = 0; i < this.backends.length; i++) {
      const index = (first + i) % this.backends.length;
      const answer = await this.forward(index, req, body);
      if (answer === 'refused') {
        this.refused[index]!++;
        continue;
      }
      if (answer === 'broken') {
        this.broken[index]!++;
        break;
      }
      this.served[index]!++;
      if (answer.status >= 200 && answer.status < 300)
        this.acknowledged.push({
          at: Date.now(),
          path: req.url ?? '',
          body: body.toString(),
          backend: index,
        });
      res.writeHead(answer.status, answer.headers).end(answer.body);
      return;
    }
    res.writeHead(502, { 'content-type': 'text/plain' }).end('no backend answered');
  }

  private forward(
    index: number,
    req: IncomingMessage,
    body: Buffer,
  ): Promise<
    | 'refused'
    | 'broken'
    | { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }
  > {
    const { host, port } = this.backends[index]!;
    return new Promise((resolve) => {
      const headers = { ...req.headers, host: `${host}:${port}`, 'content-length': String(body.length) };
      const out = request({ host, port, method: req.method, path: req.url, headers, agent: false }, (r) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => {
          const { connection: _c, 'transfer-encoding': _t, ...rest } = r.headers;
          resolve({ status: r.statusCode ?? 502, headers: rest, body: Buffer.concat(chunks) });
        });
        r.on('error', (err) => {
          this.lastError[index] = `${err.message} (answer)`;
          resolve('broken');
        });
      });
      // Refused: nothing reached the backend, the next one may take it. Anything else
      // (reset mid-request) may have been applied: the caller must retry it itself.
      out.on('error', (err: NodeJS.ErrnoException) => {
        this.lastError[index] = `${err.code ?? ''} ${err.message}`;
        resolve(err.code === 'ECONNREFUSED' ? 'refused' : 'broken');
      });
      out.end(body);
    });
  }
}
