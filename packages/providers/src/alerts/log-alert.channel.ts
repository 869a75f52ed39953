import type { AlertChannel, OpsAlert } from './ops-alert.js';

/** The part of a pino logger the log channel needs. */
export type AlertLogger = { warn(obj: object, msg: string): void };

/** Writes alerts to the service log (a constant message, the facts in the object); never fails. */
export class LogAlertChannel implements AlertChannel {
  readonly name = 'log';

  constructor(private readonly logger: AlertLogger) {}

  async send(alert: OpsAlert): Promise<void> {
    this.logger.warn(
      {
        alertId: alert.id,
        kind: alert.kind,
        domainId: alert.domain?.id,
        domain: alert.domain?.name,
        mailboxId: alert.mailbox?.id,
        reason: alert.message,
        figures: alert.figures,
        thresholds: alert.thresholds,
        link: alert.link,
      },
      'Ops alert raised',
    );
  }
}
