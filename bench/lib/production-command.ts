import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The `node …` arguments of a JSON-array command line (`["node", "--flag", "x.mjs"]`). */
function nodeArgsOf(line: string | undefined, where: string): string[] {
  const array = line ? /\[(.*)\]/.exec(line)?.[1] : undefined;
  if (!array) throw new Error(`no command found in ${where}`);
  const args = JSON.parse(`[${array}]`) as string[];
  if (args[0] !== 'node') throw new Error(`${where}: the command does not start with node`);
  return args.slice(1);
}

/**
 * How production runs the API as its own process: the node arguments of the `api`
 * service's command in docker-compose.yml (`--max-semi-space-size=1 … apps/api/dist/main.mjs`),
 * read from the file so a bench measures what users run, not a copy of it.
 */
export function composeApiCommand(file = `${root}docker-compose.yml`): string[] {
  const text = readFileSync(file, 'utf8');
  const service = /^ {2}api:\n([\s\S]*?)(?=^ {2}\S)/m.exec(text)?.[1];
  return nodeArgsOf(/^ {4}command: .*$/m.exec(service ?? '')?.[0], `${file} (service api)`);
}

/** The node arguments of the image's CMD in the Dockerfile (`--max-semi-space-size=1 … cli/dist/main.mjs start`). */
export function dockerfileCommand(file = `${root}Dockerfile`): string[] {
  return nodeArgsOf(/^CMD .*$/m.exec(readFileSync(file, 'utf8'))?.[0], `${file} (CMD)`);
}

/** The node arguments of `npm start` in the root package.json. */
export function npmStartCommand(file = `${root}package.json`): string[] {
  const start = (JSON.parse(readFileSync(file, 'utf8')) as { scripts: Record<string, string> }).scripts.start;
  const m = /^(?:exec )?node (.*)$/.exec(start ?? '');
  if (!m) throw new Error(`${file}: scripts.start is not a node command`);
  return m[1]!.split(/\s+/);
}

/** The V8/node flags of a command (the arguments before the script). */
export function nodeFlags(args: string[]): string[] {
  const flags: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith('-')) break;
    if (a === '--import') {
      i++;
      continue;
    }
    flags.push(a);
  }
  return flags;
}
