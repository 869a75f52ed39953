-- Contact policies (issue 15): the sender holds a touch for a sequence's contact
-- policy (cooldown, new people a day, recipient-domain cap) by moving its
-- next_touch_at; it records which policy and the time it moved it to, so "why isn't
-- it sending" can say so while next_touch_at is still that time.
ALTER TABLE "enrollment" ADD COLUMN "policy_hold" TEXT;
ALTER TABLE "enrollment" ADD COLUMN "policy_hold_until" TIMESTAMPTZ(3);

-- The day caps (new people a day per sequence, touches a day per recipient company)
-- are reserved, not just counted: a touch takes its slot for the day under an
-- advisory lock of the scope before it goes, so touches sent at the same moment
-- never pass a cap. One row per touch (its idempotency key) and scope; a touch that
-- comes back (a throttle wait, a retry) finds its slot taken already.
CREATE TABLE "contact_slot" (
    "scope" TEXT NOT NULL,
    "day_start" TIMESTAMPTZ(3) NOT NULL,
    "touch_key" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "contact_slot_pkey" PRIMARY KEY ("scope", "day_start", "touch_key")
);
