import { describe, expect, it } from 'vitest';
import { parseDeliveryStatus } from '../../src/classify/delivery-status.parser.js';

describe('parseDeliveryStatus', () => {
  it('reads per-recipient blocks, unfolds the diagnostic and drops status comments', () => {
    const report = parseDeliveryStatus(
      [
        'Reporting-MTA: dns; mx.example.net',
        'Arrival-Date: Thu, 29 Apr 2024 23:45:41 +0900',
        '',
        'Final-Recipient: rfc822; a@example.org',
        'Action: failed',
        'Status: 5.0.0 (permanent failure)',
        'Diagnostic-Code: smtp; 550 5.1.1 <a@example.org>: Recipient address',
        '    rejected: User unknown',
        '',
        'Final-Recipient: rfc822; b@example.org',
        'Action: delayed',
        'Status: 4.2.2',
      ].join('\r\n'),
    );
    expect(report.reportingMta).toBe('mx.example.net');
    expect(report.recipients).toEqual([
      {
        finalRecipient: 'a@example.org',
        action: 'failed',
        status: '5.0.0',
        diagnosticCode: '550 5.1.1 <a@example.org>: Recipient address rejected: User unknown',
        diagnosticType: 'smtp',
        remoteMta: '',
      },
      {
        finalRecipient: 'b@example.org',
        action: 'delayed',
        status: '4.2.2',
        diagnosticCode: '',
        diagnosticType: '',
        remoteMta: '',
      },
    ]);
  });

  it('splits recipients that share one block and accepts lower-case field names', () => {
    const report = parseDeliveryStatus(
      'final-recipient: rfc822;x@example.com\naction: failed\nstatus: 5.2.2\nfinal-recipient: rfc822;y@example.com\naction: failed\nstatus: 5.1.1\n',
    );
    expect(report.recipients.map((r) => [r.finalRecipient, r.status])).toEqual([
      ['x@example.com', '5.2.2'],
      ['y@example.com', '5.1.1'],
    ]);
  });

  it('finds no recipient in ordinary prose', () => {
    expect(parseDeliveryStatus('Hi Dana,\nStatus: all good here.\nThanks').recipients).toHaveLength(1);
    expect(parseDeliveryStatus('Hi Dana,\nthanks for the note').recipients).toHaveLength(0);
  });
});
