/**
 * A rule of the domain was broken. `code` is stable (clients and tests match on
 * it); the HTTP layer maps codes to statuses in one place.
 */
export class DomainError extends Error {
  override readonly name: string = 'DomainError';

  constructor(
    readonly code: DomainErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export type DomainErrorCode =
  | 'not_found'
  | 'suppressed'
  | 'already_enrolled'
  /** Exclusivity: the person is live in another sequence (named in `sequenceId`). */
  | 'in_other_sequence'
  /** The person asked not to be contacted for a while (a "not interested" reply's cooldown). */
  | 'cooling_off'
  | 'invalid_state'
  | 'domain_paused'
  | 'mailbox_paused'
  | 'invalid_sequence'
  /** A version migration's mapping would resend, map onto a missing node or lose an enrollment (`errors` name the nodes). */
  | 'invalid_migration'
  /** A migration plan's population changed since its dry run: plan again. */
  | 'population_changed'
  | 'conflict';
