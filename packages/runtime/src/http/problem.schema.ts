import { z } from 'zod';

/**
 * The RFC 9457 problem document every error of the API and ingest is (see
 * `sendProblem`), as the OpenAPI document declares it; further members are
 * extensions (`requiredScope`, `reason`, the ids of a domain error).
 */
export const ProblemSchema = z
  .looseObject({
    type: z.string().describe('A URI naming the kind of problem (https://touchbase.dev/problems/{code})'),
    title: z.string(),
    status: z.number().int().min(400).max(599),
    code: z
      .string()
      .optional()
      .describe('The stable code of the problem (validation_failed, not_found, ...)'),
    detail: z.string().optional(),
    instance: z.string().optional(),
    errors: z
      // Loose: an error may carry members of its own (a migration's `node`, `code`
      // and `enrollments`), which a closed item schema would drop from the answer.
      .array(z.looseObject({ field: z.string(), message: z.string() }))
      .optional()
      .describe(
        'Each field that failed validation (`body.prospects.2.email`) and why, with any members of its own',
      ),
  })
  .describe('An RFC 9457 problem document');
