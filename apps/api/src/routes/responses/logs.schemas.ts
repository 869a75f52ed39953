import { z } from 'zod';
import { API_SCOPES } from '../../auth/api-scope.js';
import { DateTimeSchema } from './common.schemas.js';

export const EventSchema = z
  .object({
    seq: z.number().int().describe('Its place in the log: the cursor'),
    id: z.uuid(),
    source: z.string(),
    externalId: z.string(),
    type: z.string(),
    prospectId: z.uuid().nullable(),
    enrollmentId: z.uuid().nullable(),
    receivedAt: DateTimeSchema,
    appliedAt: DateTimeSchema.nullable(),
    outcome: z.string().nullable(),
    classification: z.string().nullable(),
    why: z.array(z.string()).nullable(),
  })
  .meta({ id: 'Event' });

export const AuditEntrySchema = z
  .object({
    id: z.number().int().describe('Its place in the log: the cursor'),
    actor: z.string(),
    action: z.string(),
    entityType: z.string(),
    entityId: z.string(),
    data: z.unknown().describe('What the action recorded (free-form, by action)'),
    at: DateTimeSchema,
  })
  .meta({ id: 'AuditEntry' });

export const ApiKeySchema = z
  .object({
    id: z.uuid(),
    name: z.string().describe('The actor of the audit log'),
    scope: z.enum(API_SCOPES),
    createdAt: DateTimeSchema,
    lastUsedAt: DateTimeSchema.nullable().describe('To the minute'),
    revokedAt: DateTimeSchema.nullable(),
  })
  .meta({ id: 'ApiKey' });
