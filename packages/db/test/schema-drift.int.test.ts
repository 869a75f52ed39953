import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations } from '../src/migrate/migration-runner.js';
import { type DatabaseSchema, readDatabaseSchema } from './migrate/support/database-schema.reader.js';
import { readPrismaDatamodel } from './migrate/support/prisma-dmmf.reader.js';
import { findSchemaDrift } from './migrate/support/schema-drift.checker.js';
import {
  createScratchDatabase,
  type ScratchDatabase,
  withClient,
} from './migrate/support/scratch-database.js';

const SCHEMA_PATH = fileURLToPath(new URL('../../../prisma/schema.prisma', import.meta.url));

// Proves that prisma/schema.prisma and prisma/migrations describe the same database:
// a field, model, index or relation added on one side only fails here.
describe('schema.prisma and prisma/migrations', () => {
  const schema = readFileSync(SCHEMA_PATH, 'utf8');
  let db: ScratchDatabase;
  let migrated: DatabaseSchema;

  beforeAll(async () => {
    db = await createScratchDatabase('drift');
    await applyMigrations({ databaseUrl: db.url });
    migrated = await withClient(db.url, readDatabaseSchema);
  });

  afterAll(async () => {
    await db?.drop();
  });

  it('agree on every table, column, type, nullability, default, index, foreign key and enum', () => {
    const datamodel = readPrismaDatamodel(schema);
    // Guards against a vacuous pass (an empty model read from the wrong file).
    expect(datamodel.models.length).toBeGreaterThan(10);
    expect(migrated.tables).toContain('enrollment');

    expect(findSchemaDrift(datamodel, migrated)).toEqual([]);
  });

  // The drift check itself, against edits of schema.prisma that were not migrated.
  it.each([
    {
      edit: 'a new field',
      from: '  error             String?',
      to: '  error             String?\n  retryCount        Int         @default(0) @map("retry_count")',
      drift: 'Touch.retryCount: column "touch"."retry_count" is missing',
    },
    {
      edit: 'a new model',
      from: 'model Alert {',
      to: 'model Note {\n  id String @id @db.Uuid\n}\n\nmodel Alert {',
      drift: 'model Note: table "Note" is missing',
    },
    {
      edit: 'a removed field',
      from: '  outcome      String?\n',
      to: '',
      drift: 'table "event" has column "outcome" but model Event has no field for it',
    },
    {
      edit: 'a nullability change',
      from: '  error             String?',
      to: '  error             String',
      drift: 'Touch.error: column is NULL, schema.prisma wants NOT NULL',
    },
    {
      edit: 'a type change',
      from: '  step              Int\n',
      to: '  step              BigInt\n',
      drift: 'Touch.step: column type is integer (int4), schema.prisma wants bigint (int8)',
    },
    {
      edit: 'a new index',
      from: '  @@index([status])\n  @@map("touch")',
      to: '  @@index([status])\n  @@index([sentAt])\n  @@map("touch")',
      drift: 'Touch @@index(sent_at): no matching index on "touch"',
    },
    {
      edit: 'a new unique constraint',
      from: '  @@unique([kind, value])\n  @@map("suppression")',
      to: '  @@unique([kind, value])\n  @@unique([value])\n  @@map("suppression")',
      drift: 'Suppression @unique(value): no matching unique index on "suppression"',
    },
    {
      edit: 'a changed onDelete',
      from: 'mailbox           Mailbox          @relation(fields: [mailboxId], references: [id])',
      to: 'mailbox           Mailbox          @relation(fields: [mailboxId], references: [id], onDelete: Cascade)',
      drift: 'Enrollment.mailbox: foreign key "enrollment_mailbox_id_fkey" has ON DELETE r ON UPDATE c',
    },
    {
      edit: 'a new enum value',
      from: '  unknown\n}',
      to: '  unknown\n  bounced\n}',
      drift: 'enum TouchStatus: values are [sending, sent, failed, cancelled, unknown]',
    },
    {
      edit: 'a changed default',
      from: '@default(5) @map("per_minute")',
      to: '@default(6) @map("per_minute")',
      drift: 'Mailbox.perMinute: column has DEFAULT 5, which does not match @default(6)',
    },
  ])('reports $edit made in schema.prisma without a migration', ({ from, to, drift }) => {
    expect(schema).toContain(from);
    const datamodel = readPrismaDatamodel(schema.replace(from, to));

    const found = findSchemaDrift(datamodel, migrated);

    expect(found.join('\n')).toContain(drift);
  });

  it('reports a column added by a migration that schema.prisma does not have', async () => {
    const datamodel = readPrismaDatamodel(schema);
    // DDL is transactional in PostgreSQL: read the altered schema, then roll it back.
    const altered = await withClient(db.url, async (client) => {
      await client.query('BEGIN');
      try {
        await client.query('ALTER TABLE "touch" ADD COLUMN "extra" TEXT');
        await client.query('CREATE TABLE "stray" ("id" INTEGER PRIMARY KEY)');
        return await readDatabaseSchema(client);
      } finally {
        await client.query('ROLLBACK');
      }
    });

    expect(findSchemaDrift(datamodel, altered)).toEqual([
      'table "touch" has column "extra" but model Touch has no field for it',
      'table "stray" is in the database but no model in schema.prisma maps to it',
    ]);
  });
});
