-- CreateIndex
CREATE INDEX "enrollment_sequence_id_status_idx" ON "enrollment"("sequence_id", "status");

-- CreateIndex
CREATE INDEX "event_enrollment_id_idx" ON "event"("enrollment_id");
