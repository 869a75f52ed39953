import type { Logger } from '@touchbase/telemetry';

/**
 * Ordered, time-bounded shutdown: steps run in the order they were added (stop
 * intake, drain workers, close queues, quit Redis, disconnect the database), each
 * awaited, the whole bounded by `timeoutMs` so a stuck step cannot hold the process.
 */
export class Shutdown {
  private readonly steps: { name: string; run: () => Promise<unknown> }[] = [];
  private running: Promise<void> | null = null;

  constructor(
    private readonly logger: Logger,
    private readonly timeoutMs: number,
  ) {}

  add(name: string, run: () => Promise<unknown>): this {
    this.steps.push({ name, run });
    return this;
  }

  /** Adds a step to run before all others (intake is stopped first). */
  addFirst(name: string, run: () => Promise<unknown>): this {
    this.steps.unshift({ name, run });
    return this;
  }

  run(): Promise<void> {
    this.running ??= this.execute();
    return this.running;
  }

  /** Runs the shutdown on SIGINT/SIGTERM, then exits. */
  onSignals(): void {
    const handler = (signal: string) => {
      this.logger.info({ signal }, 'Shutdown requested');
      void this.run().then(() => process.exit(0));
    };
    process.once('SIGINT', handler);
    process.once('SIGTERM', handler);
  }

  private async execute(): Promise<void> {
    const deadline = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), this.timeoutMs).unref());
    const all = (async () => {
      for (const step of this.steps) {
        try {
          await step.run();
        } catch (err) {
          this.logger.warn({ step: step.name, err: (err as Error).message }, 'Shutdown step failed');
        }
      }
    })();
    if ((await Promise.race([all, deadline])) === 'timeout')
      this.logger.warn({ timeoutMs: this.timeoutMs }, 'Shutdown timed out');
    else this.logger.info('Shutdown complete');
  }
}
