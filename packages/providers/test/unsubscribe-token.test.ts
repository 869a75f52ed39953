import { describe, expect, it } from 'vitest';
import { signUnsubscribeToken, verifyUnsubscribeToken } from '../src/smtp/unsubscribe-token.js';

const SECRET = 'secret-secret-secret';
const ID = '9f0c5a3e-1111-4c2d-8e7f-aaaaaaaaaaaa';

describe('one-click unsubscribe tokens', () => {
  const token = signUnsubscribeToken(ID, SECRET);

  it('name their enrollment under the right secret only', () => {
    expect(verifyUnsubscribeToken(token, SECRET)).toBe(ID);
    expect(verifyUnsubscribeToken(token, 'another-secret-value')).toBeNull();
  });

  it('refuse a changed id, a changed or shortened MAC, and empty parts', () => {
    const [id64, mac] = token.split('.') as [string, string];
    const otherId = Buffer.from('9f0c5a3e-1111-4c2d-8e7f-bbbbbbbbbbbb').toString('base64url');
    expect(verifyUnsubscribeToken(`${otherId}.${mac}`, SECRET)).toBeNull();
    expect(verifyUnsubscribeToken(`${id64}.${mac.slice(0, -1)}A`, SECRET)).toBeNull();
    expect(verifyUnsubscribeToken(`${id64}.${mac.slice(0, -1)}`, SECRET)).toBeNull();
    expect(verifyUnsubscribeToken(`${id64}.`, SECRET)).toBeNull();
    expect(verifyUnsubscribeToken(`.${mac}`, SECRET)).toBeNull();
    expect(verifyUnsubscribeToken('', SECRET)).toBeNull();
  });

  it('accept only the exact spelling they were signed with', () => {
    const [id64, mac] = token.split('.') as [string, string];
    // A third part, or characters the base64 decoder skips, would otherwise still verify.
    expect(verifyUnsubscribeToken(`${token}.extra`, SECRET)).toBeNull();
    expect(verifyUnsubscribeToken(`${id64}!.${mac}`, SECRET)).toBeNull();
    expect(verifyUnsubscribeToken(`${id64}==.${mac}`, SECRET)).toBeNull();
    expect(verifyUnsubscribeToken(`${token}${'A'.repeat(300)}`, SECRET)).toBeNull();
  });
});
