import { describe, expect, it } from 'vitest';
import { classifyReplyText } from '../../src/classify/index.js';
import { findReferral } from '../../src/classify/referral.extractor.js';

// The local part of an address is case-sensitive (RFC 5321 section 2.4): a referral is
// kept as its writer spelt it, never folded to lower case.
describe('findReferral', () => {
  it('keeps the address as written, capitals in the local part and the domain included', () => {
    expect(findReferral('Please contact Jane.Doe@Acme.example instead.')).toBe('Jane.Doe@Acme.example');
    expect(findReferral('write to J.SMITH+sales@acme.example')).toBe('J.SMITH+sales@acme.example');
  });

  it('drops a sentence-final dot but nothing of the address', () => {
    expect(findReferral('Our buyer is MBauer@Firma.example.')).toBe('MBauer@Firma.example');
  });

  it('skips system mailboxes whatever their case, and takes the first person after them', () => {
    expect(
      findReferral('Not Postmaster@acme.example or NoReply@acme.example: ask Lea.Roth@acme.example'),
    ).toBe('Lea.Roth@acme.example');
  });

  it('finds nothing when the reply names no address', () => {
    expect(findReferral('Ask our finance team.')).toBeUndefined();
  });

  it('reaches the classification unchanged: a wrong-person reply refers to the address as written', () => {
    const got = classifyReplyText({
      subject: 'Re: A quick idea',
      text: 'Frau Beck ist im Ruhestand. Die Buchhaltung leitet jetzt Herr Yilmaz, K.Yilmaz@Firma.example. Trotzdem danke.',
    });
    expect(got.replyClass).toBe('wrong_person');
    expect(got.referral).toBe('K.Yilmaz@Firma.example');
  });
});
