import Fastify from 'fastify';

/**
 * The machine unit's server: one bare Fastify route (`POST /bare`, parses the JSON
 * body, answers `{ received: true }`), alone in its process, so the CPU one request
 * costs it can be read from /proc. Prints `{"port":…}` once listening; SIGTERM stops it.
 */
const app = Fastify({ logger: false });
app.post('/bare', async () => ({ received: true }));
const url = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`${JSON.stringify({ port: Number(new URL(url).port) })}\n`);
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
