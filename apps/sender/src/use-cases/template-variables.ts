import type { SendContext } from '@touchbase/db';

/** The template variables of a prospect: their attributes and their own fields. */
export function variablesOf(ctx: SendContext): Record<string, string | null | undefined> {
  return {
    ...ctx.prospect.attributes,
    firstName: ctx.prospect.firstName,
    lastName: ctx.prospect.lastName,
    company: ctx.prospect.company,
    email: ctx.prospect.email,
  };
}
