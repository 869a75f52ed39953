import type { Readable } from 'node:stream';
import { ProblemError } from '@touchbase/runtime';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ApiDeps } from '../api-deps.js';
import { importProspectsCsv } from '../use-cases/import-prospects-csv.js';
import { ConflictSchema, ProspectInputSchema } from './prospects.routes.js';
import { ProspectRefSchema } from './response-schemas.js';

/**
 * `POST /v1/prospects/import` with a `text/csv` body (header row first), of any
 * size: the body streams through the parser and good rows are upserted as they come,
 * so neither the file nor its rows are held whole. Bad rows are left out and
 * reported, each by line (the header is line 1), field and reason; the good ones are
 * imported. A file that stops being CSV (an unclosed quote) is 400 `malformed_csv`,
 * saying where and how many rows before it were imported. csv-parse does the RFC
 * 4180 work (quotes, embedded commas and newlines, BOM) we would get wrong by hand.
 */
export const prospectsImportRoutes: FastifyPluginAsyncZod<ApiDeps> = async (app, deps) => {
  // The raw request stream, not a string: no body limit, no whole file in memory.
  app.addContentTypeParser('text/csv', (_req, payload, done) => done(null, payload));

  app.post(
    '/v1/prospects/import',
    {
      config: { scope: 'write' },
      schema: {
        tags: ['prospects'],
        summary: 'Import prospects from CSV',
        description:
          'A text/csv file of any size, header row first (email, other emails, first name, last name, company, time zone, LinkedIn, HubSpot id, phone, consent, legal basis, consent at; other columns become attributes). Rows of one person (a shared address, LinkedIn URL, HubSpot id or phone, in the file or with a known prospect) are one prospect. Good rows are imported as they stream in; bad ones are reported by line, field and reason; rows naming two known prospects are listed in conflicts by line.',
        response: {
          200: z.object({
            imported: z.number().int(),
            rejected: z.number().int(),
            errors: z
              .array(z.object({ line: z.number().int(), field: z.string(), reason: z.string() }))
              .describe('The first rows left out: the line (the header is line 1), the field, why'),
            prospects: z.array(ProspectRefSchema).describe('The first prospects imported, one per row'),
            conflicts: z.array(ConflictSchema).describe('`index` is the line'),
          }),
        },
        consumes: ['text/csv'],
      },
    },
    async (req) => {
      // Fastify calls no parser for an empty body.
      const body = req.body as Readable | undefined;
      const report = body
        ? await importProspectsCsv(
            { importMany: (rows) => deps.repos.prospects.importMany(rows), schema: ProspectInputSchema },
            body,
          )
        : undefined;
      if (report?.malformed) {
        throw new ProblemError({
          status: 400,
          title: 'Malformed CSV',
          code: 'malformed_csv',
          detail: `${report.malformed}; ${report.imported} row(s) before it were imported`,
        });
      }
      if (!report || (report.imported === 0 && report.rejected === 0)) {
        throw new ProblemError({
          status: 400,
          title: 'Empty CSV',
          code: 'validation_failed',
          errors: [{ field: 'body', message: 'no rows' }],
        });
      }
      if (report.imported === 0) {
        // Every row refused: nothing was written, so the request is refused, each row named.
        throw new ProblemError({
          status: 400,
          title: 'No valid row',
          code: 'validation_failed',
          errors: report.errors.map((e) => ({ field: `row ${e.line}.${e.field}`, message: e.reason })),
        });
      }
      return report;
    },
  );
};
