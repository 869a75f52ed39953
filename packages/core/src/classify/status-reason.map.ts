import type { BounceReason } from './classification.types.js';

// Exact codes first: RFC 3463 and its registry (RFC 5248), RFC 7372 (auth), RFC 7505
// (null MX) and the Microsoft 365 codes that senders meet most.
const EXACT: Readonly<Record<string, BounceReason>> = {
  '1.1': 'userunknown',
  '1.2': 'hostunknown',
  '1.3': 'userunknown',
  '1.4': 'userunknown',
  '1.6': 'hasmoved',
  '1.7': 'rejected',
  '1.8': 'rejected',
  '1.10': 'notaccept',
  // RFC 3463 X.2.1: "the mailbox exists, but is not accepting messages", permanent
  // or transient as the case may be. On its own it does not say the address is dead
  // (a suspended mailbox comes back); words that do ("user unknown") still decide.
  '2.1': 'suspend',
  '2.2': 'mailboxfull',
  '2.3': 'mesgtoobig',
  '2.4': 'mailererror',
  '3.1': 'systemfull',
  '3.4': 'mesgtoobig',
  '4.1': 'networkerror',
  '4.2': 'networkerror',
  '4.3': 'networkerror',
  '4.4': 'hostunknown',
  '4.5': 'systemerror',
  '4.6': 'networkerror',
  '4.7': 'expired',
  '4.312': 'networkerror',
  '4.316': 'expired',
  '7.1': 'securityerror',
  '7.8': 'securityerror',
  '7.13': 'suspend',
  '7.17': 'hasmoved',
  '7.18': 'hasmoved',
  '7.20': 'authfailure',
  '7.21': 'authfailure',
  '7.22': 'authfailure',
  '7.23': 'authfailure',
  '7.24': 'authfailure',
  '7.25': 'requireptr',
  '7.26': 'authfailure',
  // X.7.27 is "sender address has null MX": our own domain, not the recipient's.
  '7.27': 'rejected',
  '7.28': 'speeding',
  '7.29': 'authfailure',
  '7.509': 'authfailure',
  '7.515': 'authfailure',
  '7.650': 'badreputation',
};

// When the detail is unknown, the subject digit still says where the trouble is.
const BY_SUBJECT: Readonly<Record<string, BounceReason>> = {
  '1': 'userunknown',
  '2': 'undefined',
  '3': 'systemerror',
  '4': 'networkerror',
  '5': 'syntaxerror',
  '6': 'contenterror',
  '7': 'securityerror',
};

/**
 * The reason an enhanced status code gives on its own, or undefined for a code
 * that names only its class (x.0.0) or no known subject. Codes with a subject but
 * an unknown detail (Microsoft's 5.1.351) fall back to the subject's meaning;
 * an X.1.0 ("other address status") says nothing about the address and stays
 * undefined.
 */
export function reasonFromStatus(status: string): BounceReason | undefined {
  const match = /^[245]\.(\d{1,3})\.(\d{1,3})$/.exec(status);
  if (!match) return undefined;
  const [, subject = '', detail = ''] = match;
  const exact = EXACT[`${subject}.${detail}`];
  if (exact) return exact;
  if (detail === '0') return undefined;
  return BY_SUBJECT[subject];
}
