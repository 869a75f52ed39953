import { readFile } from 'node:fs/promises';
import { classifyRawMessage } from '@touchbase/core';

/** One output line of `touchbase classify`. */
export interface ClassifyLine {
  file: string;
  class?: string;
  hard?: boolean;
  status?: string;
  reason?: string;
  /** ISO date an out-of-office says the person is back. */
  returnDate?: string;
  /** For a wrong-person reply: the address the writer points to. */
  referral?: string;
  /** The rules that fired, joined with "; ". */
  why?: string;
  /** With --explain: the rule that decided the class and hardness. */
  decidedBy?: string;
  /** With --explain: the rules that fired, one entry each. */
  reasons?: string[];
  error?: string;
}

/**
 * `touchbase classify <file.eml>...`: classifies each raw RFC 822 message and writes
 * one JSON line per file, `{"file","class","hard","status","reason","why"}`. A file
 * that cannot be read or parsed gets a line with `error` instead; the others are
 * still classified, and the exit code is 1 so scripts notice. An out-of-office line
 * carries `returnDate`, a wrong-person reply its `referral`; with `explain` each line
 * also says which rule decided (`decidedBy`) and lists the `reasons` one by one.
 *
 * @param files paths of raw messages, read as bytes (the message declares its charsets)
 * @param write receives each line without a trailing newline
 * @param options `explain` adds the deciding rule and the reasons as a list
 * @returns the process exit code: 0 when every file was classified, 1 otherwise
 */
export async function runClassify(
  files: string[],
  write: (line: string) => void,
  options: { explain?: boolean } = {},
): Promise<number> {
  let exitCode = 0;
  for (const file of files) {
    const line = await classifyFile(file, options.explain === true);
    if (line.error !== undefined) exitCode = 1;
    write(JSON.stringify(line));
  }
  return exitCode;
}

async function classifyFile(file: string, explain: boolean): Promise<ClassifyLine> {
  let raw: Buffer;
  try {
    raw = await readFile(file);
  } catch (error) {
    return { file, error: errorMessage(error) };
  }
  try {
    const result = await classifyRawMessage(raw);
    return {
      file,
      class: result.class,
      hard: result.hard,
      status: result.status,
      reason: result.reason,
      ...(result.returnDate ? { returnDate: result.returnDate } : {}),
      ...(result.referral ? { referral: result.referral } : {}),
      why: result.why.join('; '),
      ...(explain ? { decidedBy: decidingRule(result.decidedBy, result.why), reasons: result.why } : {}),
    };
  } catch (error) {
    return { file, error: `could not classify: ${errorMessage(error)}` };
  }
}

/**
 * The rule that decided: the classifier's own word when it gives one, else for a
 * bounce the reason rule (a diagnostic, status or notice reading), else the first signal.
 */
function decidingRule(decidedBy: string | undefined, why: string[]): string {
  if (decidedBy) return decidedBy;
  const reasonRule = why.find((w) => /^(diagnostic|status|notice) /.test(w));
  return reasonRule ?? why[0] ?? 'no rule fired';
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
