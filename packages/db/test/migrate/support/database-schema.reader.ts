import type pg from 'pg';

/** A column as PostgreSQL's information_schema describes it. */
export interface DbColumn {
  table: string;
  name: string;
  /** information_schema data_type: `text`, `uuid`, `ARRAY`, `USER-DEFINED`, `timestamp with time zone`... */
  dataType: string;
  /** The type's own name: `int4`, `_int4` for int4[], the enum's name for an enum. */
  udtName: string;
  nullable: boolean;
  default: string | null;
  datetimePrecision: number | null;
  characterMaximumLength: number | null;
}

/** A btree index, including those behind primary keys and unique constraints. */
export interface DbIndex {
  table: string;
  name: string;
  columns: string[];
  unique: boolean;
  primary: boolean;
}

/** A foreign key; actions as pg_constraint codes: a no action, r restrict, c cascade, n set null, d set default. */
export interface DbForeignKey {
  table: string;
  name: string;
  columns: string[];
  referencedTable: string;
  referencedColumns: string[];
  onDelete: string;
  onUpdate: string;
}

/** The parts of the `public` schema that a Prisma data model maps to. */
export interface DatabaseSchema {
  tables: string[];
  columns: DbColumn[];
  enums: Map<string, string[]>;
  indexes: DbIndex[];
  foreignKeys: DbForeignKey[];
}

/** Reads tables, columns, enums, indexes and foreign keys of the `public` schema. */
export async function readDatabaseSchema(client: pg.Client): Promise<DatabaseSchema> {
  const tables = await client.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables
      WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  const columns = await client.query<{
    table_name: string;
    column_name: string;
    data_type: string;
    udt_name: string;
    is_nullable: 'YES' | 'NO';
    column_default: string | null;
    datetime_precision: number | null;
    character_maximum_length: number | null;
  }>(
    `SELECT table_name, column_name, data_type, udt_name, is_nullable, column_default,
            datetime_precision, character_maximum_length
       FROM information_schema.columns
      WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`,
  );
  const enums = await client.query<{ name: string; labels: string[] }>(
    `SELECT t.typname::text AS name, array_agg(e.enumlabel::text ORDER BY e.enumsortorder) AS labels
       FROM pg_type t
       JOIN pg_enum e ON e.enumtypid = t.oid
       JOIN pg_namespace n ON n.oid = t.typnamespace
      WHERE n.nspname = 'public'
      GROUP BY t.typname`,
  );
  // ::text everywhere: pg does not parse arrays of the `name` type into JS arrays.
  const indexes = await client.query<{
    table_name: string;
    index_name: string;
    columns: string[];
    is_unique: boolean;
    is_primary: boolean;
  }>(
    `SELECT t.relname::text AS table_name, i.relname::text AS index_name,
            array(SELECT a.attname::text
                    FROM unnest(ix.indkey::int2[]) WITH ORDINALITY AS k(attnum, ord)
                    JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
                   ORDER BY k.ord) AS columns,
            ix.indisunique AS is_unique, ix.indisprimary AS is_primary
       FROM pg_index ix
       JOIN pg_class i ON i.oid = ix.indexrelid
       JOIN pg_class t ON t.oid = ix.indrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE n.nspname = 'public'`,
  );
  const foreignKeys = await client.query<{
    table_name: string;
    name: string;
    columns: string[];
    referenced_table: string;
    referenced_columns: string[];
    on_delete: string;
    on_update: string;
  }>(
    `SELECT t.relname::text AS table_name, c.conname::text AS name,
            array(SELECT a.attname::text FROM unnest(c.conkey) WITH ORDINALITY AS k(attnum, ord)
                    JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum
                   ORDER BY k.ord) AS columns,
            r.relname::text AS referenced_table,
            array(SELECT a.attname::text FROM unnest(c.confkey) WITH ORDINALITY AS k(attnum, ord)
                    JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.attnum
                   ORDER BY k.ord) AS referenced_columns,
            c.confdeltype::text AS on_delete, c.confupdtype::text AS on_update
       FROM pg_constraint c
       JOIN pg_class t ON t.oid = c.conrelid
       JOIN pg_class r ON r.oid = c.confrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE c.contype = 'f' AND n.nspname = 'public'`,
  );

  return {
    tables: tables.rows.map((row) => row.table_name),
    columns: columns.rows.map((row) => ({
      table: row.table_name,
      name: row.column_name,
      dataType: row.data_type,
      udtName: row.udt_name,
      nullable: row.is_nullable === 'YES',
      default: row.column_default,
      datetimePrecision: row.datetime_precision,
      characterMaximumLength: row.character_maximum_length,
    })),
    enums: new Map(enums.rows.map((row) => [row.name, row.labels])),
    indexes: indexes.rows.map((row) => ({
      table: row.table_name,
      name: row.index_name,
      columns: row.columns,
      unique: row.is_unique,
      primary: row.is_primary,
    })),
    foreignKeys: foreignKeys.rows.map((row) => ({
      table: row.table_name,
      name: row.name,
      columns: row.columns,
      referencedTable: row.referenced_table,
      referencedColumns: row.referenced_columns,
      onDelete: row.on_delete,
      onUpdate: row.on_update,
    })),
  };
}
