import { ConfigError } from '@touchbase/config';
import { type DoNotContactTable, DoNotContactTableSchema } from '@touchbase/core';

/**
 * COMPLIANCE_DO_NOT_CONTACT parsed by core's schema (the rules live there).
 * @throws ConfigError naming the variable (and the country and field) when it is not JSON or not a valid table.
 */
export function doNotContactTableOf(config: { COMPLIANCE_DO_NOT_CONTACT: string }): DoNotContactTable {
  const variable = 'COMPLIANCE_DO_NOT_CONTACT';
  let json: unknown;
  try {
    json = JSON.parse(config.COMPLIANCE_DO_NOT_CONTACT);
  } catch (err) {
    throw new ConfigError([{ variable, message: `not JSON: ${(err as Error).message}` }]);
  }
  const parsed = DoNotContactTableSchema.safeParse(json);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((i) => ({
        variable,
        message: i.path.length > 0 ? `${i.path.join('.')}: ${i.message}` : i.message,
      })),
    );
  }
  return parsed.data;
}
