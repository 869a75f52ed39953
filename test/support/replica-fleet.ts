import type { ChildProcess } from 'node:child_process';
import { freePort, waitFor } from '@touchbase/testing';
import { killHard, spawnScript, spawnService } from './child-service.js';

/** One process of the fleet: what it runs, the port it answers health checks on. */
export type FleetMember = {
  name: string;
  app: string;
  port: number;
  env: Record<string, string>;
  child: ChildProcess;
};

/**
 * Service processes started one by one, each on ports of its own, every one
 * checked healthy before the test goes on; `kill` is a SIGKILL and `restart`
 * starts the same service again on the same ports.
 */
export class ReplicaFleet {
  readonly members: FleetMember[] = [];

  constructor(private readonly baseEnv: Record<string, string>) {}

  /**
   * Starts `app` (`api`, `ingest`, `sender`, `scheduler`, or `sandbox` for
   * `touchbase sandbox`) with `env` over the fleet's, on its own port (the API,
   * ingest or sandbox port, or METRICS_PORT for a worker); resolves once it answers.
   */
  async start(
    name: string,
    app: string,
    env: Record<string, string> = {},
    /** Its port when the test must know it beforehand (a balancer's backend); free otherwise. */
    fixedPort?: number,
  ): Promise<FleetMember> {
    const port = fixedPort ?? (await freePort());
    const own: Record<string, string> = { ...this.baseEnv, ...env };
    if (app === 'api') own.API_PORT = String(port);
    else if (app === 'ingest') own.INGEST_PORT = String(port);
    else if (app === 'sandbox') own.SANDBOX_PORT = String(port);
    else own.METRICS_PORT = String(port);
    const member: FleetMember = { name, app, port, env: own, child: this.spawn(name, app, own) };
    this.members.push(member);
    await this.healthy(member);
    return member;
  }

  /** SIGKILL, no shutdown. */
  async kill(member: FleetMember): Promise<void> {
    await killHard(member.child);
  }

  /** The same service again, same ports, once the old process is gone. */
  async restart(member: FleetMember): Promise<void> {
    await killHard(member.child);
    member.child = this.spawn(member.name, member.app, member.env);
    await this.healthy(member);
  }

  async stopAll(): Promise<void> {
    await Promise.all(this.members.map((m) => killHard(m.child)));
  }

  private spawn(name: string, app: string, env: Record<string, string>): ChildProcess {
    return app === 'sandbox'
      ? spawnScript(name, 'cli/src/main.ts', ['sandbox'], env)
      : spawnService(app, env);
  }

  private async healthy(m: FleetMember): Promise<void> {
    // The sandbox has no health route; its delivery log answers once it listens.
    const path = m.app === 'sandbox' ? '/v1/deliveries' : '/healthz';
    await waitFor(
      `${m.name} to answer`,
      async () => {
        if (m.child.exitCode !== null) throw new Error(`${m.name} exited with ${m.child.exitCode}`);
        try {
          return (await fetch(`http://127.0.0.1:${m.port}${path}`)).ok;
        } catch {
          // Not listening yet: asked again at the next interval.
          return false;
        }
      },
      { timeoutMs: 60_000, intervalMs: 100 },
    );
  }
}
