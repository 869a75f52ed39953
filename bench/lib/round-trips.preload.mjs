// Counts, in a touchbase service process, what each unit of work costs in round trips:
// the PostgreSQL statements (by text), the ioredis commands (by name; a script by its
// last key's shape) and the HTTP requests it answers, written cumulatively once a
// second as JSON lines to $TB_ROUND_TRIPS_DIR/<app>-<pid>.counts.jsonl (the benches
// end their services with SIGKILL, so nothing waits for an exit). With
// TB_ROUND_TRIPS_CPU_PROFILE=1 it also writes a V8 CPU profile every 5 s beside them.
// Counts do not move with the machine's load, so they compare runs on a shared machine.
//
//   TB_ROUND_TRIPS_DIR=/tmp/rt NODE_OPTIONS="--import ./bench/lib/round-trips.preload.mjs" \
//     BENCH_RECORD=0 npx tsx bench/webhook-intake.bench.ts
//   node bench/lib/round-trips-report.mjs /tmp/rt/ingest-*.counts.jsonl
//
// Only the processes of TB_ROUND_TRIPS_APPS (default ingest,sender) are counted.
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { Session } from 'node:inspector';
import { createRequire } from 'node:module';

const dir = process.env.TB_ROUND_TRIPS_DIR;
const app = /apps\/([\w-]+)\/src\/main\.ts/.exec(process.argv.join(' '))?.[1];
const apps = (process.env.TB_ROUND_TRIPS_APPS ?? 'ingest,sender').split(',');
if (dir && app && apps.includes(app)) {
  mkdirSync(dir, { recursive: true });
  const require = createRequire(`${process.cwd()}/package.json`);
  const counts = { http: 0, pg: {}, redis: {} };
  const add = (table, key) => {
    table[key] = (table[key] ?? 0) + 1;
  };
  const pg = require('pg');
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (config, ...rest) {
    const text = typeof config === 'string' ? config : (config?.text ?? '?');
    add(counts.pg, text.replace(/\s+/g, ' ').slice(0, 160));
    return query.call(this, config, ...rest);
  };
  const { Redis } = require('ioredis');
  const sendCommand = Redis.prototype.sendCommand;
  Redis.prototype.sendCommand = function (command, ...rest) {
    const script = command.name === 'evalsha' || command.name === 'eval';
    const lastKey = script ? String(command.args?.[Number(command.args?.[1] ?? 0) + 1] ?? '') : '';
    add(
      counts.redis,
      script ? `${command.name} …${lastKey.replace(/[\w-]{12,}/g, '*').slice(-40)}` : command.name,
    );
    return sendCommand.call(this, command, ...rest);
  };
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function (event, ...args) {
    if (event === 'request') counts.http++;
    return emit.call(this, event, ...args);
  };
  const base = `${dir}/${app}-${process.pid}`;
  setInterval(() => {
    appendFileSync(`${base}.counts.jsonl`, `${JSON.stringify({ t: Date.now(), ...counts })}\n`);
  }, 1000).unref();
  if (process.env.TB_ROUND_TRIPS_CPU_PROFILE === '1') {
    const session = new Session();
    session.connect();
    const post = (method, params = {}) =>
      new Promise((resolve, reject) => session.post(method, params, (e, r) => (e ? reject(e) : resolve(r))));
    await post('Profiler.enable');
    await post('Profiler.start');
    let segment = 0;
    setInterval(async () => {
      const { profile } = await post('Profiler.stop');
      writeFileSync(`${base}.${String(segment++).padStart(3, '0')}.cpuprofile`, JSON.stringify(profile));
      await post('Profiler.start');
    }, 5000).unref();
  }
}
