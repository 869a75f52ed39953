import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  anchorsOf,
  brokenLinks,
  docCitationsOf,
  githubSlug,
  linksOf,
  markdownFiles,
  sourceFiles,
} from './support/markdown-link.checker.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('documentation links resolve in a clone', () => {
  const files = markdownFiles(root);

  it('finds the documents a newcomer reads', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'README.md',
        'docs/architecture.md',
        'apps/api/README.md',
        'apps/ingest/README.md',
        'apps/scheduler/README.md',
        'apps/sender/README.md',
        'apps/domain-health/README.md',
        'packages/core/README.md',
        'packages/db/README.md',
        'packages/queues/README.md',
        'packages/providers/README.md',
      ]),
    );
  });

  it('every link in every markdown file leads to a file, and every #anchor to a heading, in the repository', () => {
    const broken = files.flatMap((file) => brokenLinks(root, file));
    expect(broken.map((b) => `${b.file}:${b.line} ${b.target}: ${b.reason}`)).toEqual([]);
  });

  it('every docs/*.md#anchor a code comment cites is a heading of that document', () => {
    const cited = sourceFiles(root, ['apps', 'packages', 'cli', 'test', 'bench', 'scripts', 'prisma'])
      // This folder's own fixtures cite made-up documents on purpose.
      .filter((file) => !file.startsWith('test/docs/'))
      .flatMap((file) => docCitationsOf(readFileSync(join(root, file), 'utf8')).map((c) => ({ file, ...c })));
    expect(cited.length).toBeGreaterThan(0);
    const missing = cited.filter(({ target }) => {
      const [doc, anchor] = target.split('#') as [string, string];
      const path = join(root, doc);
      return !existsSync(path) || !anchorsOf(readFileSync(path, 'utf8')).has(anchor);
    });
    expect(missing.map((c) => `${c.file}:${c.line} ${c.target}`)).toEqual([]);
  });
});

describe('the link checker', () => {
  const dir = mkdtempSync(join(tmpdir(), 'touchbase-links-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('makes anchors as GitHub does', () => {
    expect(githubSlug('Reply fence')).toBe('reply-fence');
    expect(githubSlug('At-most-once send')).toBe('at-most-once-send');
    expect(githubSlug('The `touches` queue (built)')).toBe('the-touches-queue-built');
    expect(githubSlug('Past one machine: built vs. planned')).toBe('past-one-machine-built-vs-planned');
    expect([...anchorsOf('# Notes\n## Notes\n```\n# not a heading\n```\n<a id="x"></a>\n')]).toEqual([
      'notes',
      'notes-1',
      'x',
    ]);
  });

  it('ignores links shown as code and reads reference definitions', () => {
    const links = linksOf('a [real](a.md) and `[code](b.md)`\n```\n[fenced](c.md)\n```\n[ref]: d.md "t"\n');
    expect(links.map((l) => l.target)).toEqual(['a.md', 'd.md']);
  });

  it('reports a missing file, a path out of the repository and a missing anchor; accepts the rest', () => {
    mkdirSync(join(dir, 'docs'), { recursive: true });
    writeFileSync(join(dir, 'docs', 'guide.md'), '# Guide\n## Reply fence\n');
    writeFileSync(
      join(dir, 'README.md'),
      [
        '[ok](docs/guide.md#reply-fence) [dir](docs) [self](#top) [site](https://example.com/x.md)',
        '[gone](docs/missing.md) [out](../shared/DESIGN.md) [anchor](docs/guide.md#no-such-heading)',
        '# Top',
      ].join('\n'),
    );
    expect(brokenLinks(dir, 'README.md').map((b) => [b.line, b.target, b.reason])).toEqual([
      [2, 'docs/missing.md', 'no such file or directory'],
      [2, '../shared/DESIGN.md', 'leads outside the repository'],
      [2, 'docs/guide.md#no-such-heading', 'no heading with the anchor #no-such-heading'],
    ]);
  });
});
