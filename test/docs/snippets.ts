import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/** One piece of code shown to users: a fenced block of a Markdown page or the `@example` of a JSDoc comment. */
export interface Snippet {
  /** Where it is shown: the file, relative to the repository, and the line its code starts on. */
  readonly file: string;
  readonly line: number;
  readonly code: string;
  readonly language: 'ts' | 'tsx';
}

const FENCE = /^```(ts|typescript|tsx)\s*$/;

/** The TypeScript blocks of a Markdown page (```ts, ```typescript, ```tsx). */
export function markdownSnippets(file: string, text: string): Snippet[] {
  const snippets: Snippet[] = [];
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const fence = FENCE.exec(lines[index]);
    if (fence === null) continue;
    const end = lines.findIndex((line, at) => at > index && line.startsWith('```'));
    if (end === -1) throw new Error(`${file}:${index + 1}: a code block that never closes`);
    snippets.push({ file, line: index + 2, code: lines.slice(index + 1, end).join('\n'), language: fence[1] === 'tsx' ? 'tsx' : 'ts' });
    index = end;
  }
  return snippets;
}

/** The `@example` code of each JSDoc comment of a source file: the comment's lines after the tag, up to the next tag. */
export function exampleSnippets(file: string, text: string): Snippet[] {
  const snippets: Snippet[] = [];
  const lines = text.split('\n');
  lines.forEach((line, index) => {
    if (!/^\s*\* @example\s*$/.test(line)) return;
    const code: string[] = [];
    for (let at = index + 1; at < lines.length; at++) {
      const body = /^\s*\*(?: |$)(.*)$/.exec(lines[at]);
      if (body === null || /^\s*\*\//.test(lines[at]) || body[1].startsWith('@')) break;
      // An example may be fenced, as TypeDoc renders it either way.
      code.push(body[1].startsWith('```') ? '' : body[1]);
    }
    snippets.push({ file, line: index + 2, code: code.join('\n'), language: 'ts' });
  });
  return snippets;
}

/** Every snippet users see: README, CONTRIBUTING, the docs pages, and the `@example`s of the library's sources. */
export async function collectSnippets(root: string): Promise<Snippet[]> {
  const pages = ['README.md', 'CONTRIBUTING.md', ...(await filesUnder(root, 'docs', '.md'))];
  const sources = [...(await filesUnder(root, 'src', '.ts')), ...(await filesUnder(root, 'advisors', '.ts'))];
  const snippets: Snippet[] = [];
  for (const page of pages) snippets.push(...markdownSnippets(page, await readFile(path.join(root, page), 'utf8')));
  for (const source of sources) snippets.push(...exampleSnippets(source, await readFile(path.join(root, source), 'utf8')));
  return snippets;
}

async function filesUnder(root: string, folder: string, extension: string): Promise<string[]> {
  const entries = await readdir(path.join(root, folder), { recursive: true }).catch(() => []);
  return entries
    .filter((entry) => entry.endsWith(extension) && !entry.split(path.sep).includes('api'))
    .map((entry) => path.join(folder, entry))
    .sort();
}
