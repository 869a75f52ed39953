import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  composeApiCommand,
  dockerfileCommand,
  nodeFlags,
  npmStartCommand,
} from '../../bench/lib/production-command.js';

describe('the production start commands', () => {
  it('the Dockerfile, the api service of docker-compose.yml and npm start set the same V8 flags', () => {
    // The CSV bench measures the compose command: what it measured must be what every start runs.
    const compose = composeApiCommand();
    expect(compose.at(-1)).toBe('apps/api/dist/main.mjs');
    expect(nodeFlags(compose)).toEqual(['--max-semi-space-size=1', '--heap-growing-percent=25']);
    expect(nodeFlags(dockerfileCommand())).toEqual(nodeFlags(compose));
    expect(nodeFlags(npmStartCommand())).toEqual(nodeFlags(compose));
  });

  it('reads the api service only, not the command of another service', () => {
    const dir = mkdtempSync(join(tmpdir(), 'compose-'));
    const file = join(dir, 'docker-compose.yml');
    writeFileSync(
      file,
      [
        'services:',
        '  migrate:',
        '    command: ["node", "cli/dist/main.mjs", "migrate"]',
        '  api:',
        '    <<: *touchbase',
        '    command: ["node", "--max-semi-space-size=2", "apps/api/dist/main.mjs"]',
        '  ingest:',
        '    command: ["node", "apps/ingest/dist/main.mjs"]',
        '',
      ].join('\n'),
    );
    expect(composeApiCommand(file)).toEqual(['--max-semi-space-size=2', 'apps/api/dist/main.mjs']);
  });

  it('flags stop at the script and skip a loader', () => {
    expect(nodeFlags(['--optimize-for-size', '--import', 'tsx', 'cli/src/main.ts', '--x'])).toEqual([
      '--optimize-for-size',
    ]);
  });
});
