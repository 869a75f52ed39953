import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/** One link written in a markdown file: where it is and what it points at. */
export type MarkdownLink = { line: number; target: string };

/** A link that does not lead anywhere in the repository, and why. */
export type BrokenLink = { file: string; line: number; target: string; reason: string };

// Directories that hold no documentation of ours: dependencies, build output, VCS.
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'coverage', 'generated']);

/** Files under `dir` whose name `keep` accepts, pushed as paths relative to `root`. */
function collect(root: string, dir: string, keep: (name: string) => boolean, found: string[]): void {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name)) collect(root, path, keep, found);
    } else if (entry.isFile() && keep(entry.name)) {
      found.push(relative(root, path).split(sep).join('/'));
    }
  }
}

/**
 * Every markdown file of the repository under `root`, as paths relative to it,
 * sorted. Hidden directories (`.git`, `.turbo`, `.ci`) and dependency or build
 * directories are skipped.
 */
export function markdownFiles(root: string): string[] {
  const found: string[] = [];
  collect(root, root, (name) => name.toLowerCase().endsWith('.md'), found);
  return found.sort();
}

/**
 * Every TypeScript, JavaScript module or SQL file under the given directories of
 * `root` (relative paths, sorted), skipping the same directories as {@link markdownFiles}.
 */
export function sourceFiles(root: string, dirs: string[]): string[] {
  const found: string[] = [];
  for (const dir of dirs) collect(root, join(root, dir), (name) => /\.(ts|mts|mjs|sql)$/.test(name), found);
  return found.sort();
}

/**
 * The sections of the repository's docs that a source file cites, as
 * `docs/<file>.md#anchor` (how code comments point at the design).
 */
export function docCitationsOf(source: string): MarkdownLink[] {
  const citations: MarkdownLink[] = [];
  source.split('\n').forEach((text, i) => {
    for (const m of text.matchAll(/\bdocs\/[\w./-]+\.md#[\w-]+/g))
      citations.push({ line: i + 1, target: m[0] });
  });
  return citations;
}

/** The text with fenced code blocks blanked out, line breaks kept so line numbers stay right. */
function withoutCodeBlocks(markdown: string): string {
  let fence: string | null = null;
  return markdown
    .split('\n')
    .map((line) => {
      const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
      if (fence) {
        if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = null;
        return '';
      }
      if (marker) fence = marker;
      return marker ? '' : line;
    })
    .join('\n');
}

/**
 * The text of a markdown file with fenced code blocks and inline code spans
 * blanked out: a link shown as code is an example, not a link.
 */
export function withoutCode(markdown: string): string {
  return withoutCodeBlocks(markdown).replace(/(`+)[^\n]*?\1/g, (span) => ' '.repeat(span.length));
}

/**
 * The links of a markdown text: inline links and images `[text](target "title")`,
 * reference definitions `[id]: target`, and HTML `href`/`src` attributes. Links
 * inside code are not links.
 */
export function linksOf(markdown: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  withoutCode(markdown)
    .split('\n')
    .forEach((text, i) => {
      const line = i + 1;
      for (const m of text.matchAll(/\]\(\s*(<[^>]*>|[^\s)]+)(?:\s+["'(][^)]*)?\)/g))
        links.push({ line, target: m[1]!.replace(/^<|>$/g, '') });
      const ref = /^\s{0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/.exec(text);
      if (ref) links.push({ line, target: ref[1]!.replace(/^<|>$/g, '') });
      for (const m of text.matchAll(/\b(?:href|src)\s*=\s*"([^"]*)"/g)) links.push({ line, target: m[1]! });
    });
  return links;
}

/**
 * GitHub's anchor for a heading: the heading's text as rendered (inline code,
 * emphasis and link syntax dropped), lower-cased, punctuation removed except `-`
 * and `_`, each space a hyphen.
 */
export function githubSlug(heading: string): string {
  const rendered = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/[`*]/g, '')
    .trim();
  return rendered
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/**
 * Every anchor a markdown text offers: one per ATX heading (`#` to `######`), the
 * second and later headings of one slug numbered `-1`, `-2` as GitHub does, and
 * the explicit `<a id="...">` / `<a name="...">` anchors.
 */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  // Fenced blocks only: a heading's inline code is part of its anchor's text.
  const text = withoutCodeBlocks(markdown);
  for (const line of text.split('\n')) {
    const heading = /^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+\s*)?$/.exec(line);
    if (heading) {
      const slug = githubSlug(heading[1]!);
      const n = seen.get(slug) ?? 0;
      anchors.add(n === 0 ? slug : `${slug}-${n}`);
      seen.set(slug, n + 1);
    }
    for (const m of line.matchAll(/<a\s+(?:id|name)\s*=\s*"([^"]+)"/g)) anchors.add(m[1]!);
  }
  return anchors;
}

/** Links to other sites (and mail addresses) are allowed and never fetched. */
function isExternal(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target);
}

/**
 * The links of one markdown file (relative to `root`) that do not resolve inside
 * the repository: a path to no file or directory, a path that leaves the
 * repository, or an `#anchor` that no heading of the target markdown file has.
 */
export function brokenLinks(root: string, file: string): BrokenLink[] {
  const source = readFileSync(join(root, file), 'utf8');
  const broken: BrokenLink[] = [];
  const anchorCache = new Map<string, Set<string>>();
  const anchorsIn = (path: string) => {
    let anchors = anchorCache.get(path);
    if (!anchors) {
      anchors = anchorsOf(readFileSync(path, 'utf8'));
      anchorCache.set(path, anchors);
    }
    return anchors;
  };
  for (const { line, target } of linksOf(source)) {
    if (isExternal(target)) continue;
    const fail = (reason: string) => broken.push({ file, line, target, reason });
    const hash = target.indexOf('#');
    const rawPath = hash === -1 ? target : target.slice(0, hash);
    let pathPart: string;
    let anchor: string | null;
    try {
      pathPart = decodeURIComponent(rawPath.split('?')[0]!);
      anchor = hash === -1 ? null : decodeURIComponent(target.slice(hash + 1));
    } catch (err) {
      // A malformed %-escape (URIError): the link cannot lead anywhere, so it is reported.
      fail(`not a valid URL (${(err as Error).message})`);
      continue;
    }
    // GitHub reads a leading `/` as the repository's root.
    const path =
      pathPart === ''
        ? join(root, file)
        : pathPart.startsWith('/')
          ? join(root, pathPart)
          : resolve(root, dirname(file), pathPart);
    const inside = relative(root, path);
    if (inside.startsWith('..') || isAbsolute(inside)) {
      fail('leads outside the repository');
      continue;
    }
    if (!existsSync(path)) {
      fail('no such file or directory');
      continue;
    }
    if (anchor !== null && anchor !== '' && statSync(path).isFile() && path.toLowerCase().endsWith('.md')) {
      if (!anchorsIn(path).has(anchor)) fail(`no heading with the anchor #${anchor}`);
    }
  }
  return broken;
}
