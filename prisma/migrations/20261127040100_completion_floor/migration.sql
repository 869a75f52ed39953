-- Domain health watches the completion rate per sending domain (issue 15): since when
-- it is below the floor (null: not low), so one alert is raised when it falls, not one per tick.
ALTER TABLE "sending_domain" ADD COLUMN "completion_low_since" TIMESTAMPTZ(3);
