import { parseArgs } from 'node:util';
import { applyMigrations, ensureDatabase } from '@touchbase/db';
import { SandboxServer } from '@touchbase/providers';
import { describeBootError, loadRuntimeConfig } from '@touchbase/runtime';
import { runDemo } from './commands/demo.command.js';
import { sandboxOptions } from './commands/sandbox-options.js';
import { startSystem } from './commands/start.command.js';

const USAGE = `usage: touchbase <command>

  start               run every service in one process (API, ingest, scheduler, sender,
                      domain-health) with the sandbox provider on loopback
  demo [--count N] [--keep]
                      start, run a demo campaign in compressed time, print its funnel
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
`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'start': {
      const system = await startSystem(loadRuntimeConfig());
      system.rt.shutdown.onSignals();
      return new Promise<number>(() => {});
    }
    case 'demo': {
      const { values } = parseArgs({
        args: rest,
        options: { count: { type: 'string', default: '200' }, keep: { type: 'boolean', default: false } },
      });
      // Compressed time unless the user chose otherwise: a day of the sequence lasts two seconds.
      const env = { TIME_SCALE: '43200', SANDBOX_OOO_RATE: '0', LOG_LEVEL: 'warn', ...process.env };
      return runDemo(loadRuntimeConfig(env), {
        count: Number(values.count),
        keep: values.keep ?? false,
        print: (l) => console.log(l),
      });
    }
    case 'sandbox': {
      const config = loadRuntimeConfig();
      const sandbox = new SandboxServer({
        ...sandboxOptions(config),
        host: config.SANDBOX_HOST,
        webhookUrl: config.SANDBOX_WEBHOOK_URL ?? `http://127.0.0.1:${config.INGEST_PORT}/webhooks/sandbox`,
      });

      console.log(`sandbox provider listening on ${await sandbox.start()}`);
      const stop = () => void sandbox.close().then(() => process.exit(0));
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      return new Promise<number>(() => {});
    }
    case 'migrate': {
      const config = loadRuntimeConfig();
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
      return runRecover(loadRuntimeConfig(), { provider: values.provider }, (l) => console.log(l));
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
