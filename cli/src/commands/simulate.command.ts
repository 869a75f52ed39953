import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { type SimulationRequest, SimulationRequestSchema, simulateCampaign } from '@touchbase/api';
import { DomainError } from '@touchbase/core';
import { createDatabase, createRepositories } from '@touchbase/db';
import { renderSummary, renderSvg } from '@touchbase/simulator';
import { z } from 'zod';

export const SIMULATE_USAGE = `usage: touchbase simulate [FILE.json] [--prospects FILE.csv] [--count N]
                         [--sequence-id ID [--sequence-version N]] [--mailbox-id ID]...
                         [--start ISO] [--days N]
                         [--seed N] [--json] [--svg OUT.svg]`;

type Out = { print: (line: string) => void; error: (line: string) => void };

/**
 * `touchbase simulate`: a campaign's dry run. The input file is the body of
 * `POST /v1/simulations` (see examples/simulate/campaign.json); flags override it:
 * `--prospects` a CSV with a `timezone` column, `--count` a synthetic population,
 * `--sequence-id` and `--mailbox-id` existing rows (read from DATABASE_URL, nothing
 * written; `--sequence-version` a version other than the latest, by number or id),
 * `--start`, `--days` (horizon), `--seed`. Prints the terminal summary,
 * or the JSON report with `--json`; `--svg` also writes the picture.
 *
 * @param databaseUrl only opened when the input names an existing sequence or mailbox
 * @returns the exit code: 0 done, 2 bad arguments or input (each problem named)
 */
export async function runSimulate(args: string[], databaseUrl: () => string, out: Out): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(args);
  } catch (error) {
    out.error(`touchbase simulate: ${(error as Error).message}`);
    out.error(SIMULATE_USAGE);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    out.print(SIMULATE_USAGE);
    return 0;
  }
  let request: Record<string, unknown> = {};
  try {
    if (positionals[0])
      request = JSON.parse(await readFile(positionals[0], 'utf8')) as Record<string, unknown>;
    if (values.prospects) request.prospects = { csv: await readFile(values.prospects, 'utf8') };
  } catch (error) {
    out.error(`touchbase simulate: ${(error as Error).message}`);
    return 2;
  }
  if (values.count) request.prospects = { ...(request.prospects as object), count: Number(values.count) };
  if (values['sequence-id']) {
    request.sequenceId = values['sequence-id'];
    delete request.sequence;
  }
  if (values['sequence-version']) {
    const v = values['sequence-version'];
    request.version = /^\d+$/.test(v) ? Number(v) : v;
  }
  if (values['mailbox-id']?.length) {
    request.mailboxIds = values['mailbox-id'];
    delete request.mailboxes;
  }
  if (values.start) request.start = values.start;
  if (values.days) request.horizonDays = Number(values.days);
  if (values.seed) request.seed = Number(values.seed);

  const checked = SimulationRequestSchema.safeParse(request);
  if (!checked.success) {
    for (const issue of checked.error.issues)
      out.error(`${issue.path.join('.') || '(input)'}: ${issue.message}`);
    return 2;
  }
  const input: SimulationRequest = checked.data;
  const needsDatabase = Boolean(input.sequenceId || (input.mailboxIds && !input.mailboxes));
  const db = needsDatabase ? createDatabase(databaseUrl(), { poolSize: 2 }) : null;
  let report: Awaited<ReturnType<typeof simulateCampaign>>;
  try {
    report = await simulateCampaign(
      { ...(db ? { repos: createRepositories(db) } : {}), clock: () => new Date() },
      input,
    );
  } catch (error) {
    if (error instanceof DomainError) {
      const field = typeof error.details.field === 'string' ? `${error.details.field}: ` : '';
      out.error(`touchbase simulate: ${field}${error.message}`);
      return 2;
    }
    if (error instanceof z.ZodError) {
      for (const issue of error.issues) out.error(`${issue.path.join('.') || '(input)'}: ${issue.message}`);
      return 2;
    }
    throw error;
  } finally {
    await db?.close();
  }
  if (values.svg) await writeFile(values.svg, renderSvg(report));
  if (values.json) out.print(JSON.stringify(report, null, 2));
  else {
    out.print(renderSummary(report).trimEnd());
    if (values.svg) out.print(`Picture: ${values.svg}`);
  }
  return 0;
}

function parse(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    options: {
      prospects: { type: 'string' },
      count: { type: 'string' },
      'sequence-id': { type: 'string' },
      'sequence-version': { type: 'string' },
      'mailbox-id': { type: 'string', multiple: true },
      start: { type: 'string' },
      days: { type: 'string' },
      seed: { type: 'string' },
      json: { type: 'boolean', default: false },
      svg: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
}
