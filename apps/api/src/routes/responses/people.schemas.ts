import { CONSENT_STATES, IDENTITY_KINDS, LEGAL_BASES, SUPPRESSION_KINDS } from '@touchbase/core';
import { z } from 'zod';
import { DateTimeSchema } from './common.schemas.js';

export const ProspectSchema = z
  .object({
    id: z.uuid(),
    email: z.string(),
    emailStatus: z.string().describe('`valid`, or why the address cannot be sent to'),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    company: z.string().nullable(),
    companyDomain: z.string().nullable(),
    timezone: z.string().nullable(),
    attributes: z
      .record(z.string(), z.string())
      .describe("The person's template variables (free-form names, as imported)"),
    consent: z.enum(CONSENT_STATES).nullable(),
    legalBasis: z.enum(LEGAL_BASES).nullable(),
    consentAt: DateTimeSchema.nullable(),
    linkedinUrl: z.string().nullable(),
    hubspotId: z.string().nullable(),
    phone: z.string().nullable().describe('E.164'),
    identities: z
      .array(z.object({ kind: z.enum(IDENTITY_KINDS), value: z.string() }))
      .describe('Every name the person is known by, their own address included'),
  })
  .meta({ id: 'Prospect' });

/** Prospects as an upsert answers them: the id of each row's person. */
export const ProspectRefSchema = z.object({ id: z.uuid(), email: z.string() }).meta({ id: 'ProspectRef' });

export const SuppressionSchema = z
  .object({
    id: z.uuid(),
    kind: z.enum(SUPPRESSION_KINDS),
    value: z.string().describe('The address, the domain, or the sha-256 of an erased address'),
    reason: z.string().nullable(),
    createdAt: DateTimeSchema,
  })
  .meta({ id: 'Suppression' });

export const TriageItemSchema = z
  .object({
    id: z.uuid(),
    eventId: z.uuid(),
    source: z.string(),
    kind: z.enum(['unknown_sender', 'cold_inbound', 'referral']),
    email: z.string().nullable(),
    classification: z.string().nullable(),
    why: z.array(z.string()).describe('The classifier rules that fired'),
    receivedAt: DateTimeSchema,
    resolvedAt: DateTimeSchema.nullable(),
  })
  .meta({ id: 'TriageItem' });
