import { readdirSync, readFileSync } from 'node:fs';
import { bounceCorpusDir } from '@touchbase/testing';
import { describe, expect, it } from 'vitest';
import { looksLikeRfc822 } from '../src/webhooks/inbound-webhook.js';

const corpus = bounceCorpusDir();

describe('inbound: what counts as a raw message', () => {
  it('accepts every message of the real corpus', () => {
    const files = readdirSync(corpus).filter((f) => f.endsWith('.eml'));
    expect(files.filter((f) => !looksLikeRfc822(readFileSync(corpus + f, 'latin1')))).toEqual([]);
  });

  it('refuses JSON, random bytes and empty bodies', () => {
    expect(looksLikeRfc822('{"from": "a@b.example", "text": "hi"}')).toBe(false);
    expect(looksLikeRfc822('')).toBe(false);
    expect(looksLikeRfc822('\u0000\u00ff\u0013garbage: yes')).toBe(false);
    expect(looksLikeRfc822('From: a@b.example\r\nSubject: hi\r\n\r\nbody')).toBe(true);
  });
});
