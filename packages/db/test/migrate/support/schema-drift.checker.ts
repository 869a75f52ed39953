import type { DMMF } from '@prisma/client/runtime/client';
import type { DatabaseSchema, DbColumn } from './database-schema.reader.js';

// Prisma Migrate's own bookkeeping; no model maps to it.
const MIGRATIONS_TABLE = '_prisma_migrations';

// PostgreSQL's identifier limit: Prisma shortens longer generated names, which this
// checker does not replicate, so it only compares names that fit.
const MAX_IDENTIFIER_LENGTH = 63;

interface ColumnType {
  dataType: string;
  udtName: string;
  datetimePrecision?: number;
  characterMaximumLength?: number;
}

// Prisma's column type for each scalar without a @db attribute, on PostgreSQL.
const SCALAR_TYPES: Record<string, ColumnType> = {
  String: { dataType: 'text', udtName: 'text' },
  Int: { dataType: 'integer', udtName: 'int4' },
  BigInt: { dataType: 'bigint', udtName: 'int8' },
  Float: { dataType: 'double precision', udtName: 'float8' },
  Decimal: { dataType: 'numeric', udtName: 'numeric' },
  Boolean: { dataType: 'boolean', udtName: 'bool' },
  DateTime: { dataType: 'timestamp without time zone', udtName: 'timestamp', datetimePrecision: 3 },
  Json: { dataType: 'jsonb', udtName: 'jsonb' },
  Bytes: { dataType: 'bytea', udtName: 'bytea' },
};

// @db.<name>(args) on PostgreSQL. A type missing here fails the check loudly rather
// than passing unchecked.
const NATIVE_TYPES: Record<string, (args: number[]) => ColumnType> = {
  Text: () => ({ dataType: 'text', udtName: 'text' }),
  VarChar: ([length]) => ({
    dataType: 'character varying',
    udtName: 'varchar',
    ...(length === undefined ? {} : { characterMaximumLength: length }),
  }),
  Char: ([length]) => ({ dataType: 'character', udtName: 'bpchar', characterMaximumLength: length ?? 1 }),
  Uuid: () => ({ dataType: 'uuid', udtName: 'uuid' }),
  Citext: () => ({ dataType: 'USER-DEFINED', udtName: 'citext' }),
  Inet: () => ({ dataType: 'inet', udtName: 'inet' }),
  SmallInt: () => ({ dataType: 'smallint', udtName: 'int2' }),
  Integer: () => ({ dataType: 'integer', udtName: 'int4' }),
  BigInt: () => ({ dataType: 'bigint', udtName: 'int8' }),
  Real: () => ({ dataType: 'real', udtName: 'float4' }),
  DoublePrecision: () => ({ dataType: 'double precision', udtName: 'float8' }),
  Decimal: () => ({ dataType: 'numeric', udtName: 'numeric' }),
  Money: () => ({ dataType: 'money', udtName: 'money' }),
  Boolean: () => ({ dataType: 'boolean', udtName: 'bool' }),
  Date: () => ({ dataType: 'date', udtName: 'date', datetimePrecision: 0 }),
  Timestamp: ([p]) => ({
    dataType: 'timestamp without time zone',
    udtName: 'timestamp',
    datetimePrecision: p ?? 6,
  }),
  Timestamptz: ([p]) => ({
    dataType: 'timestamp with time zone',
    udtName: 'timestamptz',
    datetimePrecision: p ?? 6,
  }),
  Time: ([p]) => ({ dataType: 'time without time zone', udtName: 'time', datetimePrecision: p ?? 6 }),
  Timetz: ([p]) => ({ dataType: 'time with time zone', udtName: 'timetz', datetimePrecision: p ?? 6 }),
  Json: () => ({ dataType: 'json', udtName: 'json' }),
  JsonB: () => ({ dataType: 'jsonb', udtName: 'jsonb' }),
  ByteA: () => ({ dataType: 'bytea', udtName: 'bytea' }),
  Xml: () => ({ dataType: 'xml', udtName: 'xml' }),
};

// Referential actions as pg_constraint.confdeltype / confupdtype spell them.
const ACTION_CODES: Record<string, string> = {
  NoAction: 'a',
  Restrict: 'r',
  Cascade: 'c',
  SetNull: 'n',
  SetDefault: 'd',
};

// @default functions evaluated by the client, which leave the column without a default.
const CLIENT_SIDE_DEFAULTS = new Set(['uuid', 'cuid', 'nanoid', 'ulid']);

/**
 * Compares a Prisma data model with a PostgreSQL schema, both ways, as `prisma migrate
 * diff` would: every model has its table, every scalar field its column (type,
 * nullability, default), every @id/@unique/@@unique/@@index its index, every relation its
 * foreign key (columns and referential actions), every enum its type and values; and the
 * database has no table, column, index, foreign key or enum that the model lacks.
 *
 * @returns one readable line per difference; empty when they agree.
 */
export function findSchemaDrift(datamodel: DMMF.Datamodel, db: DatabaseSchema): string[] {
  const drift: string[] = [];
  const matchedIndexes = new Set<string>();
  const matchedForeignKeys = new Set<string>();
  const modelByName = new Map(datamodel.models.map((model) => [model.name, model]));
  const enumDbName = new Map(datamodel.enums.map((e) => [e.name, e.dbName ?? e.name]));

  for (const e of datamodel.enums) {
    const typeName = e.dbName ?? e.name;
    const expected = e.values.map((value) => value.dbName ?? value.name);
    const actual = db.enums.get(typeName);
    if (actual === undefined) drift.push(`enum ${e.name}: type "${typeName}" is missing`);
    else if (actual.join(',') !== expected.join(',')) {
      drift.push(
        `enum ${e.name}: values are [${actual.join(', ')}], schema.prisma has [${expected.join(', ')}]`,
      );
    }
  }
  for (const typeName of db.enums.keys()) {
    if (![...enumDbName.values()].includes(typeName)) {
      drift.push(`type "${typeName}" is in the database but no enum in schema.prisma maps to it`);
    }
  }

  for (const model of datamodel.models) {
    const table = tableName(model);
    if (!db.tables.includes(table)) {
      drift.push(`model ${model.name}: table "${table}" is missing`);
      continue;
    }
    const columns = new Map(db.columns.filter((c) => c.table === table).map((c) => [c.name, c]));
    const scalarFields = model.fields.filter((f) => f.kind !== 'object');

    for (const field of scalarFields) {
      const label = `${model.name}.${field.name}`;
      const column = columns.get(columnName(field));
      if (column === undefined) {
        drift.push(`${label}: column "${table}"."${columnName(field)}" is missing`);
        continue;
      }
      drift.push(...compareColumn(label, field, column, enumDbName));
    }
    const fieldColumns = new Set(scalarFields.map(columnName));
    for (const column of columns.keys()) {
      if (!fieldColumns.has(column)) {
        drift.push(`table "${table}" has column "${column}" but model ${model.name} has no field for it`);
      }
    }

    for (const index of datamodel.indexes.filter((i) => i.model === model.name)) {
      const indexColumns = index.fields.map((f) => columnName(fieldOf(model, f.name)));
      const suffix = { id: 'pkey', unique: 'key', normal: 'idx', fulltext: 'idx' }[index.type];
      const expectedName =
        index.dbName ??
        (index.type === 'id' ? `${table}_pkey` : `${table}_${indexColumns.join('_')}_${suffix}`);
      const label = `${model.name} ${index.type === 'id' ? '@id' : index.type === 'unique' ? '@unique' : '@@index'}(${indexColumns.join(', ')})`;
      const found = db.indexes.find(
        (i) =>
          i.table === table &&
          i.columns.join(',') === indexColumns.join(',') &&
          i.primary === (index.type === 'id') &&
          i.unique === (index.type !== 'normal'),
      );
      if (found === undefined) {
        drift.push(`${label}: no matching ${index.type === 'normal' ? '' : 'unique '}index on "${table}"`);
        continue;
      }
      matchedIndexes.add(`${table}.${found.name}`);
      if (expectedName.length <= MAX_IDENTIFIER_LENGTH && found.name !== expectedName) {
        drift.push(`${label}: index is named "${found.name}", Prisma names it "${expectedName}"`);
      }
    }

    for (const field of model.fields.filter((f) => f.kind === 'object' && f.relationFromFields?.length)) {
      const label = `${model.name}.${field.name}`;
      const target = modelByName.get(field.type);
      if (target === undefined) throw new Error(`${label}: relation to unknown model ${field.type}`);
      const fkColumns = (field.relationFromFields ?? []).map((name) => columnName(fieldOf(model, name)));
      const refColumns = (field.relationToFields ?? []).map((name) => columnName(fieldOf(target, name)));
      // Prisma's defaults: Restrict for a required relation, SetNull for an optional one.
      const onDelete = field.relationOnDelete ?? (field.isRequired ? 'Restrict' : 'SetNull');
      const onUpdate = field.relationOnUpdate ?? 'Cascade';
      const expectedName = `${table}_${fkColumns.join('_')}_fkey`;
      const found = db.foreignKeys.find(
        (fk) =>
          fk.table === table &&
          fk.columns.join(',') === fkColumns.join(',') &&
          fk.referencedTable === tableName(target) &&
          fk.referencedColumns.join(',') === refColumns.join(','),
      );
      if (found === undefined) {
        drift.push(
          `${label}: no foreign key "${table}"(${fkColumns.join(', ')}) → "${tableName(target)}"(${refColumns.join(', ')})`,
        );
        continue;
      }
      matchedForeignKeys.add(`${table}.${found.name}`);
      if (found.onDelete !== ACTION_CODES[onDelete] || found.onUpdate !== ACTION_CODES[onUpdate]) {
        drift.push(
          `${label}: foreign key "${found.name}" has ON DELETE ${found.onDelete} ON UPDATE ${found.onUpdate}, ` +
            `schema.prisma wants ${onDelete} (${ACTION_CODES[onDelete]}) / ${onUpdate} (${ACTION_CODES[onUpdate]})`,
        );
      }
      if (expectedName.length <= MAX_IDENTIFIER_LENGTH && found.name !== expectedName) {
        drift.push(`${label}: foreign key is named "${found.name}", Prisma names it "${expectedName}"`);
      }
    }
  }

  const modelTables = new Set(datamodel.models.map(tableName));
  for (const table of db.tables) {
    if (table !== MIGRATIONS_TABLE && !modelTables.has(table)) {
      drift.push(`table "${table}" is in the database but no model in schema.prisma maps to it`);
    }
  }
  for (const index of db.indexes) {
    if (modelTables.has(index.table) && !matchedIndexes.has(`${index.table}.${index.name}`)) {
      drift.push(
        `index "${index.name}" on "${index.table}"(${index.columns.join(', ')}) is not in schema.prisma`,
      );
    }
  }
  for (const fk of db.foreignKeys) {
    if (modelTables.has(fk.table) && !matchedForeignKeys.has(`${fk.table}.${fk.name}`)) {
      drift.push(`foreign key "${fk.name}" on "${fk.table}" is not a relation in schema.prisma`);
    }
  }
  return drift;
}

function compareColumn(
  label: string,
  field: DMMF.Field,
  column: DbColumn,
  enumDbName: Map<string, string>,
): string[] {
  const drift: string[] = [];
  const expected = expectedType(label, field, enumDbName);
  const actualType: ColumnType = {
    dataType: column.dataType,
    udtName: column.udtName,
    ...(column.datetimePrecision === null ? {} : { datetimePrecision: column.datetimePrecision }),
    ...(column.characterMaximumLength === null
      ? {}
      : { characterMaximumLength: column.characterMaximumLength }),
  };
  const mismatch =
    actualType.dataType !== expected.dataType ||
    actualType.udtName !== expected.udtName ||
    (expected.datetimePrecision !== undefined &&
      actualType.datetimePrecision !== expected.datetimePrecision) ||
    (expected.characterMaximumLength !== undefined &&
      actualType.characterMaximumLength !== expected.characterMaximumLength);
  if (mismatch) {
    drift.push(
      `${label}: column type is ${describeType(actualType)}, schema.prisma wants ${describeType(expected)}`,
    );
  }
  // Prisma creates scalar list columns nullable even though the field is required.
  const expectNullable = !field.isRequired || field.isList;
  if (column.nullable !== expectNullable) {
    drift.push(
      `${label}: column is ${column.nullable ? 'NULL' : 'NOT NULL'}, schema.prisma wants ${expectNullable ? 'NULL' : 'NOT NULL'}`,
    );
  }
  const defaultProblem = compareDefault(field, column.default);
  if (defaultProblem !== undefined) drift.push(`${label}: ${defaultProblem}`);
  return drift;
}

function expectedType(label: string, field: DMMF.Field, enumDbName: Map<string, string>): ColumnType {
  let element: ColumnType | undefined;
  if (field.kind === 'enum') {
    element = { dataType: 'USER-DEFINED', udtName: enumDbName.get(field.type) ?? field.type };
  } else if (field.nativeType) {
    const [name, args] = field.nativeType;
    const native = NATIVE_TYPES[name];
    if (native === undefined)
      throw new Error(`${label}: @db.${name} is not known to the drift checker; add it`);
    element = native(args.map(Number));
  } else {
    element = SCALAR_TYPES[field.type];
    if (element === undefined)
      throw new Error(`${label}: type ${field.type} is not known to the drift checker; add it`);
  }
  // information_schema reports a list as ARRAY, with the element type behind a leading _.
  return field.isList ? { dataType: 'ARRAY', udtName: `_${element.udtName}` } : element;
}

/** Describes a default mismatch, or returns undefined when the column's default fits the field. */
function compareDefault(field: DMMF.Field, actual: string | null): string | undefined {
  const expected = expectedDefault(field);
  if (expected === undefined) {
    return actual === null
      ? undefined
      : `column has DEFAULT ${actual}, schema.prisma has no database default`;
  }
  if (actual === null) return 'column has no DEFAULT, schema.prisma has @default';
  if (expected === '*' || expected(actual)) return undefined;
  return `column has DEFAULT ${actual}, which does not match @default(${JSON.stringify(field.default)})`;
}

/** A predicate on PostgreSQL's rendering of the default, '*' for "any", undefined for "none". */
function expectedDefault(field: DMMF.Field): ((actual: string) => boolean) | '*' | undefined {
  const value = field.default;
  if (!field.hasDefaultValue || value === undefined) return undefined;
  if (Array.isArray(value)) {
    if (value.every((v) => typeof v === 'number')) {
      return (actual) =>
        actual.startsWith(`ARRAY[${value.join(', ')}]`) || (value.length === 0 && actual.startsWith("'{}'"));
    }
    return '*';
  }
  if (typeof value === 'object') {
    const fn = value as DMMF.FieldDefault;
    if (CLIENT_SIDE_DEFAULTS.has(fn.name)) return undefined;
    if (fn.name === 'now') return (actual) => actual === 'CURRENT_TIMESTAMP';
    if (fn.name === 'autoincrement') return (actual) => actual.startsWith('nextval(');
    return '*';
  }
  if (typeof value === 'string') {
    return (actual) => actual.startsWith(`'${value.replaceAll("'", "''")}'::`);
  }
  return (actual) => actual === String(value);
}

function describeType(type: ColumnType): string {
  const extra = [
    type.datetimePrecision === undefined ? '' : `precision ${type.datetimePrecision}`,
    type.characterMaximumLength === undefined ? '' : `length ${type.characterMaximumLength}`,
  ].filter(Boolean);
  return `${type.dataType} (${type.udtName}${extra.length ? `, ${extra.join(', ')}` : ''})`;
}

function tableName(model: DMMF.Model): string {
  return model.dbName ?? model.name;
}

function columnName(field: DMMF.Field): string {
  return field.dbName ?? field.name;
}

function fieldOf(model: DMMF.Model, name: string): DMMF.Field {
  const field = model.fields.find((f) => f.name === name);
  if (field === undefined) throw new Error(`${model.name}.${name} is referenced but not defined`);
  return field;
}
