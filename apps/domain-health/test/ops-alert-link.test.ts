import type { AlertRow } from '@touchbase/db';
import { describe, expect, it } from 'vitest';
import { toOpsAlert } from '../src/alerts/alert-channels.js';

const BASE = 'http://touchbase.ops.example/';

const row = (kind: string, data: Record<string, unknown>, domainId: string | null = 'd1'): AlertRow => ({
  id: 'a1',
  kind,
  domainId,
  domain: domainId ? 'setup.example' : null,
  message: 'm',
  data,
  createdAt: new Date('2026-11-27T12:00:00Z'),
  settledAt: null,
  deliveries: [],
});

/** Each alert links to the page ops act on: the mailbox, the reply's timeline, or the domain. */
describe('the link of an ops alert', () => {
  it('a mailbox pause links to its mailbox, even when it names the enrollment whose touch was refused', () => {
    const alert = toOpsAlert(
      row('mailbox.paused', { mailboxId: 'mb1', provider: 'http', enrollmentId: 'e1' }),
      BASE,
    );
    expect(alert.link).toBe('http://touchbase.ops.example/v1/mailboxes/mb1');
  });

  it('a reply links to the timeline of the enrollment it answered', () => {
    const alert = toOpsAlert(row('reply.received', { enrollmentId: 'e1', prospectId: 'p1' }), BASE);
    expect(alert.link).toBe('http://touchbase.ops.example/v1/enrollments/e1/timeline');
  });

  it('a domain alert links to its domain, and one without a domain to the health page', () => {
    expect(toOpsAlert(row('domain.completion_low', {}), BASE).link).toBe(
      'http://touchbase.ops.example/v1/domains/d1',
    );
    expect(toOpsAlert(row('domain.completion_low', {}, null), BASE).link).toBe(
      'http://touchbase.ops.example/v1/domains/health',
    );
  });
});
