import { describe, expect, it } from 'vitest';
import { isValidTimeZone, resolveTimeZone, TimeZoneError, TimeZoneSchema } from '../../src/time/index.js';

describe('resolveTimeZone', () => {
  it("uses the prospect's zone when it is valid", () => {
    expect(resolveTimeZone('Asia/Kolkata', 'Europe/Berlin')).toBe('Asia/Kolkata');
    expect(resolveTimeZone(' America/New_York ', 'Europe/Berlin')).toBe('America/New_York');
  });

  it.each([null, undefined, '', '   ', 'Mars/Olympus', 'EST-ish', '+05:30', 'New York'])(
    "falls back to the mailbox's zone for prospect zone %j",
    (prospectTz) => {
      expect(resolveTimeZone(prospectTz, 'Europe/Berlin')).toBe('Europe/Berlin');
    },
  );

  it('throws TimeZoneError for an invalid mailbox zone, even with a valid prospect zone', () => {
    expect(() => resolveTimeZone('Asia/Kolkata', 'Europe/Atlantis')).toThrow(TimeZoneError);
    expect(() => resolveTimeZone(null, '')).toThrow(
      expect.objectContaining({ code: 'invalid_time_zone', name: 'TimeZoneError' }),
    );
  });
});

describe('isValidTimeZone and TimeZoneSchema', () => {
  it.each(['UTC', 'Europe/Berlin', 'America/Argentina/Buenos_Aires', 'Asia/Kolkata', 'Etc/GMT+5'])(
    'accepts %j',
    (name) => {
      expect(isValidTimeZone(name)).toBe(true);
      expect(TimeZoneSchema.safeParse(name).success).toBe(true);
    },
  );

  it.each(['', 'Europe/Atlantis', '+05:30', 'UTC+1', 'europe berlin'])('refuses %j', (name) => {
    expect(isValidTimeZone(name)).toBe(false);
    expect(TimeZoneSchema.safeParse(name).success).toBe(false);
  });
});
