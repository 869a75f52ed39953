import type { Readable } from 'node:stream';
import { normalisedEmail } from '@touchbase/core';
import { type CsvError, parse } from 'csv-parse';
import type { z } from 'zod';
import type { ProspectInputSchema } from '../routes/prospects.routes.js';

type ProspectInput = z.infer<typeof ProspectInputSchema>;

/** CSV headers we map to prospect fields (case and separators ignored); the rest become attributes. */
const KNOWN: Record<
  string,
  | 'email'
  | 'otherEmails'
  | 'firstName'
  | 'lastName'
  | 'company'
  | 'companyDomain'
  | 'timezone'
  | 'linkedinUrl'
  | 'hubspotId'
  | 'phone'
  | 'consent'
  | 'legalBasis'
  | 'consentAt'
> = {
  email: 'email',
  emailaddress: 'email',
  firstname: 'firstName',
  lastname: 'lastName',
  company: 'company',
  companyname: 'company',
  companydomain: 'companyDomain',
  website: 'companyDomain',
  timezone: 'timezone',
  linkedin: 'linkedinUrl',
  linkedinurl: 'linkedinUrl',
  hubspotid: 'hubspotId',
  hubspotcontactid: 'hubspotId',
  hubspotrecordid: 'hubspotId',
  // More addresses of the person, separated by `;`, `,` or spaces.
  otheremails: 'otherEmails',
  otheremail: 'otherEmails',
  secondaryemail: 'otherEmails',
  email2: 'otherEmails',
  phone: 'phone',
  phonenumber: 'phone',
  mobile: 'phone',
  consent: 'consent',
  legalbasis: 'legalBasis',
  lawfulbasis: 'legalBasis',
  consentat: 'consentAt',
  consentdate: 'consentAt',
};

/** Rows upserted per statement: large enough to be fast, small enough to keep memory flat. */
const BATCH = 1_000;
/** Bad rows described in the answer (all are counted). */
const MAX_REPORTED = 1_000;
/** Prospects listed in the answer (all are counted; `GET /v1/prospects` lists the rest). */
const MAX_LISTED = 10_000;

/** A row left out, as the answer reports it: its line in the file (the header is line 1), the field, why. */
export type RowProblem = { line: number; field: string; reason: string };

export type CsvImportReport = {
  imported: number;
  rejected: number;
  /** The first {@link MAX_REPORTED} rows left out. */
  errors: RowProblem[];
  /** The first {@link MAX_LISTED} prospects imported (two rows of one person: one prospect, listed for each). */
  prospects: { id: string; email: string }[];
  /** Rows whose identities named more than one known prospect (`index` is the line): joined to the first. */
  conflicts: { index: number; prospectId: string; otherProspectIds: string[] }[];
  /** Set when the file is not CSV from some point on (an unclosed quote): rows before it are imported. */
  malformed?: string;
};

export type ImportCsvDeps = {
  /** Upserts one prospect per person (db's `ProspectRepository.importMany`). */
  importMany(rows: ProspectInput[]): Promise<{
    prospects: { id: string; email: string }[];
    conflicts: { index: number; prospectId: string; otherProspectIds: string[] }[];
  }>;
  /** ProspectInputSchema: the same rules as `POST /v1/prospects`. */
  schema: typeof ProspectInputSchema;
};

/**
 * Imports a CSV file of any size as it streams in (csv-parse's stream API, header
 * row first): each good row is upserted in batches, one prospect per person (rows
 * sharing an address, a LinkedIn URL, a HubSpot id or a phone, in the file or with
 * a prospect already known, are one prospect), each bad one is left
 * out and reported by line and field. A file is never held whole in memory (only
 * the addresses seen, to report a repeat). An address repeated in the file is a bad
 * row naming the line that had it first: which of two rows of one file is the person
 * is a question for whoever made the file, not a silent last-wins.
 */
export async function importProspectsCsv(deps: ImportCsvDeps, body: Readable): Promise<CsvImportReport> {
  const report: CsvImportReport = { imported: 0, rejected: 0, errors: [], prospects: [], conflicts: [] };
  const reject = (problem: RowProblem) => {
    report.rejected++;
    if (report.errors.length < MAX_REPORTED) report.errors.push(problem);
  };
  const parser = parse({
    columns: true,
    skip_empty_lines: true,
    trim: true,
    bom: true,
    info: true,
    // A row with too many or too few fields is one bad row, not the end of the file.
    skip_records_with_error: true,
  });
  parser.on('skip', (err: CsvError) => {
    const line = Number((err as CsvError & { lines?: number }).lines ?? 0);
    if (err.code === 'CSV_QUOTE_NOT_CLOSED') report.malformed = err.message;
    else reject({ line, field: 'row', reason: err.message });
  });
  body.on('error', (err) => parser.destroy(err));
  body.pipe(parser);

  let batch: ProspectInput[] = [];
  let lines: number[] = [];
  const seen = new Map<string, number>();
  const flush = async () => {
    if (batch.length === 0) return;
    const { prospects: rows, conflicts } = await deps.importMany(batch);
    report.imported += rows.length;
    for (const r of rows) {
      if (report.prospects.length >= MAX_LISTED) break;
      report.prospects.push({ id: r.id, email: r.email });
    }
    for (const c of conflicts) {
      if (report.conflicts.length < MAX_REPORTED) report.conflicts.push({ ...c, index: lines[c.index]! });
    }
    batch = [];
    lines = [];
  };

  for await (const { record, info } of parser as AsyncIterable<{
    record: Record<string, string>;
    info: { lines: number };
  }>) {
    const parsed = deps.schema.safeParse(prospectOf(record));
    if (!parsed.success) {
      const fields = new Map<string, string>();
      for (const issue of parsed.error.issues) {
        const field = issue.path.join('.') || 'email';
        if (!fields.has(field)) fields.set(field, issue.message);
      }
      // One entry per field; counted once as a row.
      report.rejected++;
      for (const [field, reason] of fields) {
        if (report.errors.length < MAX_REPORTED) report.errors.push({ line: info.lines, field, reason });
      }
      continue;
    }
    const email = normalisedEmail(parsed.data.email);
    const first = seen.get(email);
    if (first !== undefined) {
      reject({ line: info.lines, field: 'email', reason: `repeats the address of line ${first}` });
      continue;
    }
    seen.set(email, info.lines);
    batch.push(parsed.data);
    lines.push(info.lines);
    if (batch.length >= BATCH) await flush();
  }
  await flush();
  return report;
}

/** A CSV record as a prospect input: known headers to fields, the rest to attributes. */
function prospectOf(record: Record<string, string>): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  const attributes: Record<string, string> = {};
  for (const [header, value] of Object.entries(record)) {
    if (value === '') continue;
    const key = header.toLowerCase().replace(/[\s_-]/g, '');
    // Own keys only: a column named "constructor" must not find Object's members.
    const known = Object.hasOwn(KNOWN, key) ? KNOWN[key] : undefined;
    if (known === 'otherEmails') input.otherEmails = value.split(/[;,\s]+/).filter(Boolean);
    else if (known) input[known] = value;
    else attributes[header.replace(/[^A-Za-z0-9_-]/g, '_').replace(/^[^A-Za-z_]/, '_')] = value;
  }
  if (Object.keys(attributes).length > 0) input.attributes = attributes;
  return input;
}
