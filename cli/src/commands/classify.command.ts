import { readFile } from 'node:fs/promises';
import { classifyRawMessage } from '@touchbase/core';

/** One output line of `touchbase classify`. */
export interface ClassifyLine {
  file: string;
  class?: string;
  hard?: boolean;
  status?: string;
  reason?: string;
  /** The rules that fired, joined with "; ". */
  why?: string;
  error?: string;
}

/**
 * `touchbase classify <file.eml>...`: classifies each raw RFC 822 message and writes
 * one JSON line per file, `{"file","class","hard","status","reason","why"}`. A file
 * that cannot be read or parsed gets a line with `error` instead; the others are
 * still classified, and the exit code is 1 so scripts notice.
 *
 * @param files paths of raw messages, read as bytes (the message declares its charsets)
 * @param write receives each line without a trailing newline
 * @returns the process exit code: 0 when every file was classified, 1 otherwise
 */
export async function runClassify(files: string[], write: (line: string) => void): Promise<number> {
  let exitCode = 0;
  for (const file of files) {
    const line = await classifyFile(file);
    if (line.error !== undefined) exitCode = 1;
    write(JSON.stringify(line));
  }
  return exitCode;
}

async function classifyFile(file: string): Promise<ClassifyLine> {
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
      why: result.why.join('; '),
    };
  } catch (error) {
    return { file, error: `could not classify: ${errorMessage(error)}` };
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
