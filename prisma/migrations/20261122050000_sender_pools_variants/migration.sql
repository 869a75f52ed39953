-- AlterTable
ALTER TABLE "mailbox" ADD COLUMN     "status_reason" TEXT;

-- AlterTable
ALTER TABLE "sequence" ADD COLUMN     "mailbox_pool_id" UUID;

-- AlterTable
ALTER TABLE "touch" ADD COLUMN     "variant" INTEGER;

-- CreateTable
CREATE TABLE "mailbox_pool" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "mailbox_pool_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "mailbox_pool_member" (
    "pool_id" UUID NOT NULL,
    "mailbox_id" UUID NOT NULL,

    CONSTRAINT "mailbox_pool_member_pkey" PRIMARY KEY ("pool_id","mailbox_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "mailbox_pool_name_key" ON "mailbox_pool"("name");

-- CreateIndex
CREATE INDEX "mailbox_pool_member_mailbox_id_idx" ON "mailbox_pool_member"("mailbox_id");

-- AddForeignKey
ALTER TABLE "sequence" ADD CONSTRAINT "sequence_mailbox_pool_id_fkey" FOREIGN KEY ("mailbox_pool_id") REFERENCES "mailbox_pool"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "mailbox_pool_member" ADD CONSTRAINT "mailbox_pool_member_pool_id_fkey" FOREIGN KEY ("pool_id") REFERENCES "mailbox_pool"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "mailbox_pool_member" ADD CONSTRAINT "mailbox_pool_member_mailbox_id_fkey" FOREIGN KEY ("mailbox_id") REFERENCES "mailbox"("id") ON DELETE CASCADE ON UPDATE CASCADE;
