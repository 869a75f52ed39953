-- Re-timing pending touches (issues 12 and 19): a pending touch's due time is its
-- raw due time (a wait after the previous touch, pacing, a soft-bounce back-off)
-- moved into the sending window. The raw time is kept, with the next_touch_at the
-- fitting gave, so a change of window, holidays or caps re-fits it exactly from the
-- raw time, not from the already-fitted one. The raw time holds only while
-- next_touch_at still equals next_touch_fitted_at: a writer that moves
-- next_touch_at for another reason (a hold, a pause) leaves it out of re-fitting.
ALTER TABLE "enrollment" ADD COLUMN "next_touch_unfitted_at" TIMESTAMPTZ(3);
ALTER TABLE "enrollment" ADD COLUMN "next_touch_fitted_at" TIMESTAMPTZ(3);
