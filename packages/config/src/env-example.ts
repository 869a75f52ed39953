import type { z } from 'zod';

/** Renders `.env.example` from the schema: every variable, its description and default. */
export function renderEnvExample(shape: Record<string, z.ZodType>): string {
  const lines = [
    '# Every variable touchbase reads, with its default. Generated from packages/config',
    '# (npm run env:example); a test fails when a variable is missing here.',
    '#',
    '# Copy it to .env and change what you need: every touchbase command and service',
    '# reads .env from the working directory at start. A variable set in the real',
    '# environment (shell, Docker, CI) wins over the same line in .env. The tests do',
    '# not read .env (NODE_ENV=test); they use TEST_DATABASE_SERVER_URL and REDIS_URL.',
    '',
  ];
  for (const [name, schema] of Object.entries(shape)) {
    const description = schema.description ?? '';
    const parsed = schema.safeParse(undefined);
    const value = parsed.success && parsed.data !== undefined ? String(parsed.data) : '';
    lines.push(`# ${description}`, `${value ? '' : '# '}${name}=${value}`, '');
  }
  return lines.join('\n');
}
