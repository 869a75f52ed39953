import { describe, expect, it } from 'vitest';
import type { EnrollmentStatus } from '../../src/enrollment/enrollment-status.js';
import {
  exclusiveMergeEnds,
  keptOf,
  mergeEnrollmentsPlan,
  mustCancelOnMerge,
} from '../../src/people/prospect-merge.js';

const e = (id: string, sequenceId: string, status: EnrollmentStatus, day: number) => ({
  id,
  sequenceId,
  status,
  createdAt: new Date(Date.UTC(2026, 0, day)),
});

describe('merge plan', () => {
  it('moves enrollments in sequences the kept prospect is not in', () => {
    expect(mergeEnrollmentsPlan([e('k1', 's1', 'active', 1)], [e('f1', 's2', 'active', 2)])).toEqual([
      { enrollmentId: 'f1', action: 'move' },
    ]);
  });

  it('keeps the earlier of two live enrollments in one sequence and cancels the later', () => {
    expect(mergeEnrollmentsPlan([e('k1', 's1', 'active', 1)], [e('f1', 's1', 'paused', 2)])).toEqual([
      { enrollmentId: 'f1', action: 'cancel', keptEnrollmentId: 'k1' },
    ]);
    expect(mergeEnrollmentsPlan([e('k1', 's1', 'active', 3)], [e('f1', 's1', 'active', 2)])).toEqual([
      { enrollmentId: 'f1', action: 'replace', replacedEnrollmentId: 'k1' },
    ]);
  });

  it('keeps the live one over an ended one, whichever started first', () => {
    expect(mergeEnrollmentsPlan([e('k1', 's1', 'replied', 1)], [e('f1', 's1', 'active', 5)])).toEqual([
      { enrollmentId: 'f1', action: 'replace', replacedEnrollmentId: 'k1' },
    ]);
    expect(keptOf(e('k1', 's1', 'active', 5), e('f1', 's1', 'exhausted', 1)).id).toBe('k1');
  });

  it('keeps the kept prospect own enrollment on a tie', () => {
    expect(keptOf(e('k1', 's1', 'active', 1), e('f1', 's1', 'active', 1)).id).toBe('k1');
  });

  it('cancels only what is still live', () => {
    expect(mustCancelOnMerge({ status: 'queued' })).toBe(true);
    expect(mustCancelOnMerge({ status: 'paused' })).toBe(true);
    expect(mustCancelOnMerge({ status: 'replied' })).toBe(false);
  });
});

describe('suppressions on merge', () => {
  it('carries the person choices to the merged person, not a dead address', async () => {
    const { suppressionFollowsPerson } = await import('../../src/people/prospect-merge.js');
    expect(suppressionFollowsPerson('unsubscribe')).toBe(true);
    expect(suppressionFollowsPerson('complaint')).toBe(true);
    expect(suppressionFollowsPerson('erasure_request')).toBe(true);
    expect(suppressionFollowsPerson('do not contact (sales asked)')).toBe(true);
    expect(suppressionFollowsPerson('bounce:5.1.1')).toBe(false);
    expect(suppressionFollowsPerson('bounce:soft_x3')).toBe(false);
  });
});

describe('exclusivity after a merge', () => {
  const s = (id: string, sequenceId: string, day: number, exclusive: boolean) => ({
    id,
    sequenceId,
    createdAt: new Date(Date.UTC(2026, 0, day)),
    exclusive,
  });

  it('keeps the live enrollment started first and ends those an exclusive sequence conflicts with', () => {
    expect(exclusiveMergeEnds([s('b', 's2', 2, true), s('a', 's1', 1, true)])).toEqual([
      { enrollmentId: 'b', keptEnrollmentId: 'a' },
    ]);
    // Either side exclusive is a conflict.
    expect(exclusiveMergeEnds([s('a', 's1', 1, true), s('b', 's2', 2, false)])).toEqual([
      { enrollmentId: 'b', keptEnrollmentId: 'a' },
    ]);
  });

  it('lets non-exclusive sequences run side by side', () => {
    expect(exclusiveMergeEnds([s('a', 's1', 1, false), s('b', 's2', 2, false)])).toEqual([]);
    expect(exclusiveMergeEnds([s('a', 's1', 1, true)])).toEqual([]);
  });
});
