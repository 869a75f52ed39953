import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { applyMigrations, ensureDatabase } from '@touchbase/db';
import { SandboxServer } from '@touchbase/providers';
import { describeBootError, listenNamed, loadRuntimeConfig, readEnvFile } from '@touchbase/runtime';
import { createLogger } from '@touchbase/telemetry';
import { pino } from 'pino';
import { runDemo } from './commands/demo.command.js';
import { demoState } from './commands/demo-state.js';
import { sandboxOptions } from './commands/sandbox-options.js';
import { startSystem } from './commands/start.command.js';

const USAGE = `usage: touchbase <command>

  start               run every service in one process (API, ingest, scheduler, sender,
                      domain-health) with the sandbox provider on loopback
  demo [--count N] [--keep] [--database-url URL] [--redis-prefix PREFIX]
                      start, run a demo campaign in compressed time, print its funnel;
                      its own database (touchbase_demo) and Redis prefix (touchbase-demo),
                      emptied at each run
  sandbox             run only the sandbox provider (for services started one by one)
  migrate             create the database if missing and apply the migrations
  classify [--explain] FILE...
                      classify raw RFC 822 messages, one JSON line per file
                      (--explain: the rule that decided and each reason)
  keys create --name NAME --scope read|write|admin
  keys list [--all]
  keys revoke ID|NAME
                      API keys: create one (printed once, only its hash is stored), list,
                      revoke
  recover --provider NAME
                      read the provider's event stream from the saved cursor, record and
                      apply what ingest missed, advance the cursor (NAME: http, sandbox)
  simulate [FILE.json] [--prospects FILE.csv] [--count N] [--sequence-id ID]
           [--mailbox-id ID]... [--start ISO] [--days N] [--seed N] [--json] [--svg OUT.svg]
                      a campaign's dry run on a virtual clock with the live rules: sends
                      per day per mailbox, the last touch, delays by windows and caps, the
                      funnel, the bounce guard, the binding constraint (nothing is sent;
                      see examples/simulate)
  retention --older-than DURATION [--batch N]
                      retire effect-free engagement events (sent, delivered, opened,
                      clicked) older than DURATION (at least 7d): keys and funnel facts
                      kept, see docs/scaling.md#event-retention
`;

// `.env` in the working directory, under the real environment: a variable set in the
// shell (or by Docker, CI) wins over the file.
const envFile = readEnvFile();
const env = { ...envFile.values, ...process.env };

/** The demo's settings: under the environment and over `.env` (a copied .env.example must not slow it to real time). */
function demoEnv(): Record<string, string | undefined> {
  // Compressed time: a day of the sequence lasts two seconds, and the domain guard's
  // hourly check follows the same clock, so /v1/domains/health shows the campaign.
  const timeScale = Number(process.env.TIME_SCALE ?? 43_200);
  const defaults = {
    TIME_SCALE: String(timeScale),
    DOMAIN_HEALTH_INTERVAL_MS: String(Math.max(1000, Math.round(3_600_000 / (timeScale || 1)))),
    SANDBOX_OOO_RATE: '0',
  };
  return { ...envFile.values, ...defaults, ...process.env };
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'start': {
      const system = await startSystem(loadRuntimeConfig(env));
      system.rt.shutdown.onSignals();
      return new Promise<number>(() => {});
    }
    case 'demo': {
      const { values } = parseArgs({
        args: rest,
        options: {
          count: { type: 'string', default: '200' },
          keep: { type: 'boolean', default: false },
          'database-url': { type: 'string' },
          'redis-prefix': { type: 'string' },
        },
      });
      const base = demoEnv();
      const state = demoState(base, {
        databaseUrl: values['database-url'],
        redisPrefix: values['redis-prefix'],
      });
      const config = loadRuntimeConfig({
        ...base,
        DATABASE_URL: state.databaseUrl,
        REDIS_PREFIX: state.redisPrefix,
      });
      // The services log to a file: JSON lines in the middle of the demo's own lines
      // would bury them. Errors still reach the terminal.
      const logPath = join(tmpdir(), 'touchbase-demo.log');
      const logger = createLogger({
        name: 'touchbase',
        level: config.LOG_LEVEL,
        destination: pino.multistream([
          { level: config.LOG_LEVEL as pino.Level, stream: pino.destination({ dest: logPath, sync: true }) },
          { level: 'error', stream: process.stderr },
        ]),
      });
      return runDemo(config, {
        count: Number(values.count),
        keep: values.keep ?? false,
        state,
        logger,
        logPath,
        print: (l) => console.log(l),
      });
    }
    case 'sandbox': {
      const config = loadRuntimeConfig(env);
      const sandbox = new SandboxServer({
        ...sandboxOptions(config),
        host: config.SANDBOX_HOST,
        webhookUrl: config.SANDBOX_WEBHOOK_URL ?? `http://127.0.0.1:${config.INGEST_PORT}/webhooks/sandbox`,
      });

      const where = { host: config.SANDBOX_HOST, port: config.SANDBOX_PORT };
      console.log(
        `sandbox provider listening on ${await listenNamed('SANDBOX_PORT', where, () => sandbox.start())}`,
      );
      const stop = () => void sandbox.close().then(() => process.exit(0));
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      return new Promise<number>(() => {});
    }
    case 'migrate': {
      const config = loadRuntimeConfig(env);
      await ensureDatabase(config.DATABASE_URL);
      const { applied } = await applyMigrations({ databaseUrl: config.DATABASE_URL });
      console.log(applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
      return 0;
    }
    case 'classify': {
      // Loaded on demand: the classifier pulls in the MIME parser, which `start` does not need.
      const { runClassify } = await import('./commands/classify.command.js');
      const explain = rest.includes('--explain');
      const files = rest.filter((arg) => arg !== '--explain');
      return runClassify(files, (line: string) => process.stdout.write(`${line}\n`), { explain });
    }
    case 'keys': {
      const { runKeys } = await import('./commands/keys.command.js');
      return runKeys(rest, loadRuntimeConfig(), {
        print: (l) => console.log(l),
        error: (l) => process.stderr.write(`${l}\n`),
      });
    }
    case 'recover': {
      const { values } = parseArgs({ args: rest, options: { provider: { type: 'string' } } });
      if (!values.provider) {
        process.stderr.write(USAGE);
        return 2;
      }
      const { runRecover } = await import('./commands/recover.command.js');
      return runRecover(loadRuntimeConfig(env), { provider: values.provider }, (l) => console.log(l));
    }
    case 'simulate': {
      const { runSimulate } = await import('./commands/simulate.command.js');
      return runSimulate(rest, () => loadRuntimeConfig(env).DATABASE_URL, {
        print: (l) => console.log(l),
        error: (l) => process.stderr.write(`${l}\n`),
      });
    }
    case 'retention': {
      const { runRetention } = await import('./commands/retention.command.js');
      return runRetention(rest, loadRuntimeConfig(env), {
        print: (l) => console.log(l),
        error: (l) => process.stderr.write(`${l}\n`),
      });
    }
    default:
      process.stderr.write(USAGE);
      return command ? 2 : 0;
  }
}

try {
  const code = await main(process.argv.slice(2));
  process.exit(code);
} catch (err) {
  // Config, database and Redis errors carry a message meant for a person: print it plainly.
  process.stderr.write(`touchbase: ${describeBootError(err)}\n`);
  process.exit(1);
}
