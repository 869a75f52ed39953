import { ProblemError, sendProblem } from '@touchbase/runtime';
import { parse } from 'csv-parse/sync';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ApiDeps } from '../api-deps.js';
import { ProspectInputSchema } from './prospects.routes.js';

/** CSV headers we map to prospect fields (case and separators ignored); the rest become attributes. */
const KNOWN: Record<
  string,
  'email' | 'firstName' | 'lastName' | 'company' | 'companyDomain' | 'timezone' | 'linkedinUrl' | 'hubspotId'
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
};
const MAX_ROWS = 50_000;

/**
 * `POST /v1/prospects/import` with a `text/csv` body (header row first). All or
 * nothing: one bad row refuses the whole file with a problem naming each row and
 * field, so a half-imported list never needs cleaning up. csv-parse does the RFC
 * 4180 work (quotes, embedded commas and newlines, BOM) we would get wrong by hand.
 */
export const prospectsImportRoutes: FastifyPluginAsyncZod<ApiDeps> = async (app, deps) => {
  app.addContentTypeParser(
    'text/csv',
    { parseAs: 'string', bodyLimit: 20 * 1024 * 1024 },
    (_req, body, done) => done(null, body),
  );

  app.post(
    '/v1/prospects/import',
    { config: { scope: 'write' }, schema: { tags: ['prospects'], consumes: ['text/csv'] } },
    async (req, reply) => {
      const records = parseCsv(String(req.body ?? ''));
      if (records.length === 0)
        return sendProblem(reply, {
          status: 400,
          title: 'Empty CSV',
          code: 'validation_failed',
          errors: [{ field: 'body', message: 'no rows' }],
        });
      if (records.length > MAX_ROWS) {
        return sendProblem(reply, {
          status: 413,
          title: 'Too many rows',
          code: 'too_many_rows',
          detail: `at most ${MAX_ROWS} rows per file`,
        });
      }
      const errors: { field: string; message: string }[] = [];
      const prospects = records.map((record, i) => {
        const input: Record<string, unknown> = {};
        const attributes: Record<string, string> = {};
        for (const [header, value] of Object.entries(record)) {
          if (value === '') continue;
          const known = KNOWN[header.toLowerCase().replace(/[\s_-]/g, '')];
          if (known) input[known] = value;
          else attributes[header.replace(/[^A-Za-z0-9_-]/g, '_').replace(/^[^A-Za-z_]/, '_')] = value;
        }
        if (Object.keys(attributes).length > 0) input.attributes = attributes;
        const parsed = ProspectInputSchema.safeParse(input);
        if (!parsed.success) {
          // Row numbers count the header as row 1, as spreadsheets show them.
          for (const issue of parsed.error.issues)
            errors.push({ field: `row ${i + 2}.${issue.path.join('.') || 'email'}`, message: issue.message });
          return null;
        }
        return parsed.data;
      });
      if (errors.length > 0) {
        return sendProblem(reply, {
          status: 400,
          title: 'Invalid rows',
          code: 'validation_failed',
          detail: `${errors.length} problem(s); nothing was imported`,
          errors: errors.slice(0, 100),
        });
      }
      const rows = await deps.repos.prospects.upsertMany(prospects.filter((p) => p !== null));
      return { imported: rows.length, prospects: rows.map((r) => ({ id: r.id, email: r.email })) };
    },
  );
};

/** The rows of a CSV file, header row first. @throws ProblemError (400 `malformed_csv`) when it is not CSV. */
function parseCsv(text: string): Record<string, string>[] {
  try {
    return parse(text, { columns: true, skip_empty_lines: true, trim: true, bom: true });
  } catch (err) {
    // csv-parse says where and why (an unclosed quote on line 3); that is the detail.
    throw new ProblemError({
      status: 400,
      title: 'Malformed CSV',
      code: 'malformed_csv',
      detail: (err as Error).message,
    });
  }
}
