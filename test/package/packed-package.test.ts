import { existsSync } from 'node:fs';
import { copyFile, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, installInto, packLibrary, ROOT, runCommand, runOrThrow } from './packed-app.ts';

interface ProbeResult {
  readonly exports?: readonly string[];
  readonly error?: { readonly name: string; readonly code?: string; readonly message: string };
}

const manifest = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  exports: Record<string, string | { types: string; import: string; default: string }>;
};

/** The entry points whose module loads an optional peer dependency, and that peer. */
const BACKEND_PEERS: Readonly<Record<string, string>> = {
  './qdrant': '@qdrant/js-client-rest',
  './redis': 'redis',
  './postgres': 'pg',
  './pgvector': 'pg',
  './cohere': 'cohere-ai',
  './testing': 'vitest',
};

const entryPoints = Object.entries(manifest.exports)
  .filter((entry): entry is [string, { types: string; import: string; default: string }] => typeof entry[1] === 'object')
  .map(([subpath, conditions]) => ({
    subpath,
    specifier: path.posix.join(manifest.name, subpath),
    conditions,
    source: conditions.types.replace(/^\.\/dist\//, '').replace(/\.d\.ts$/, '.ts'),
    peer: BACKEND_PEERS[subpath],
  }));
const backendEntryPoints = entryPoints.filter((entryPoint) => entryPoint.peer !== undefined);
const plainEntryPoints = entryPoints.filter((entryPoint) => entryPoint.peer === undefined);

/** The runtime exports of an entry point's source module, which its built and packed form must match. */
async function sourceExports(source: string): Promise<string[]> {
  return Object.keys(await import(path.join(ROOT, source))).sort();
}

describe('the packed package, installed in a fresh app with only its runtime dependencies', () => {
  let work = '';
  let tarball = '';
  let app = '';

  async function probe(script: string, specifiers: readonly string[], extra: readonly string[] = []): Promise<Record<string, ProbeResult>> {
    await copyFile(path.join(ROOT, 'test', 'package', script), path.join(app, script));
    const { stdout } = await runOrThrow(process.execPath, [script, ...extra, ...specifiers], { cwd: app });
    return JSON.parse(stdout) as Record<string, ProbeResult>;
  }

  beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'ai-advisors-package-'));
    tarball = await packLibrary({ directory: work });
    app = await createApp({ directory: path.join(work, 'app'), packages: [tarball] });
  }, 300_000);

  afterAll(async () => {
    if (work !== '') await rm(work, { recursive: true, force: true });
  });

  it('declares types, import and default conditions for every entry point', () => {
    expect(entryPoints.length).toBeGreaterThan(1);
    for (const { conditions } of entryPoints) {
      expect(Object.keys(conditions)).toEqual(['types', 'import', 'default']);
      expect(conditions.default).toBe(conditions.import);
    }
  });

  it("takes the app's own AI SDK (a peer: one copy of ai, so its types and instanceof match) and no provider", async () => {
    const modules = path.join(app, 'node_modules');
    expect(existsSync(path.join(modules, 'ai', 'package.json'))).toBe(true);
    expect(existsSync(path.join(modules, manifest.name, 'node_modules', 'ai'))).toBe(false);
    expect(existsSync(path.join(modules, '@ai-sdk', 'openai'))).toBe(false);
    const installed = JSON.parse(await readFile(path.join(modules, manifest.name, 'package.json'), 'utf8')) as {
      peerDependencies: Record<string, string>;
      dependencies: Record<string, string>;
    };
    expect(installed.peerDependencies.ai).toMatch(/^\^7\./);
    expect(Object.keys(installed.dependencies)).not.toContain('ai');
  });

  it('ships the licence, and every source file its source and declaration maps point to', async () => {
    const installed = path.join(app, 'node_modules', manifest.name);
    expect(await readFile(path.join(installed, 'LICENSE'), 'utf8')).toMatch(/^\s*Apache License\s+Version 2\.0, January 2004/);
    const maps = (await readdir(path.join(installed, 'dist'), { recursive: true }))
      .filter((file) => file.endsWith('.map'))
      .map((file) => path.join(installed, 'dist', file));
    expect(maps.length).toBeGreaterThan(100);
    const unresolved = [];
    for (const map of maps) {
      const { sources, sourceRoot = '' } = JSON.parse(await readFile(map, 'utf8')) as { sources: string[]; sourceRoot?: string };
      for (const source of sources) {
        const file = path.resolve(path.dirname(map), sourceRoot, source);
        if (!file.startsWith(`${installed}${path.sep}`) || !existsSync(file))
          unresolved.push(`${path.relative(installed, map)} → ${source}`);
      }
    }
    expect(unresolved).toEqual([]);
  });

  it('passes publint (strict) and arethetypeswrong (ESM-only profile: node16 from ESM, bundlers) on the tarball', async () => {
    const publint = await runCommand(path.join(ROOT, 'node_modules', '.bin', 'publint'), ['run', tarball, '--strict'], { cwd: work });
    expect(publint, publint.stdout + publint.stderr).toMatchObject({ code: 0 });
    expect(publint.stdout).toContain('All good!');
    const attw = await runCommand(path.join(ROOT, 'node_modules', '.bin', 'attw'), [tarball, '--profile', 'esm-only', '--format', 'json'], {
      cwd: work,
    });
    const analysis = JSON.parse(attw.stdout) as {
      analysis: { problems: { kind: string; resolutionKind?: string; entrypoint?: string }[] };
    };
    const visible = analysis.analysis.problems.filter((problem) => !['node10', 'node16-cjs'].includes(problem.resolutionKind ?? ''));
    expect(visible).toEqual([]);
    expect(attw.code, attw.stderr).toBe(0);
  }, 60_000);

  it('loads every entry point without a backend with import and with require, exporting what its source exports', async () => {
    const specifiers = plainEntryPoints.map((entryPoint) => entryPoint.specifier);
    const imported = await probe('import-entry-points.mjs', specifiers);
    const required = await probe('require-entry-points.cjs', specifiers);
    for (const { specifier, source } of plainEntryPoints) {
      const expected = { exports: await sourceExports(source) };
      expect(expected.exports.length, specifier).toBeGreaterThan(0);
      expect(imported[specifier], specifier).toEqual(expected);
      expect(required[specifier], specifier).toEqual(expected);
    }
  }, 60_000);

  it('builds a BM25 index in worker threads: the worker module ships and loads from the installed package, whatever the flags', async () => {
    const script = `import { buildBm25Retriever } from 'ai-advisors/retrieval';
const documents = [{ id: 'refunds', text: 'Refunds take five days', metadata: {} }, { id: 'shipping', text: 'Shipping is free', metadata: {} }];
const retriever = await buildBm25Retriever({ documents, workers: 1 });
console.log(JSON.stringify((await retriever.retrieve('refund')).map((hit) => hit.id)));`;
    // --input-type is refused by a worker started from a file, --expose-gc by one given its flags explicitly.
    for (const flags of [['--input-type=module'], ['--expose-gc', '--input-type=module']]) {
      const { stdout } = await runOrThrow(process.execPath, [...flags, '--eval', script], { cwd: app });
      expect(JSON.parse(stdout), flags.join(' ')).toEqual(['refunds']);
    }
  }, 60_000);

  it('refuses a backend entry point whose optional peer is not installed with the npm install line', async () => {
    const imported = await probe(
      'import-entry-points.mjs',
      backendEntryPoints.map((entryPoint) => entryPoint.specifier),
    );
    for (const { specifier, peer } of backendEntryPoints) {
      expect(imported[specifier].error, specifier).toMatchObject({ name: 'ComponentError' });
      expect(imported[specifier].error?.message).toBe(
        `${specifier}: import ${peer} failed: the optional peer dependency "${peer}" is not installed: npm install ${peer}`,
      );
    }
  }, 60_000);

  describe('with the optional peers installed', () => {
    beforeAll(async () => {
      await installInto({ app, packages: [...backendEntryPoints.map((entryPoint) => entryPoint.peer!), '@types/node'] });
    }, 300_000);

    it('imports every backend entry point, exporting what its source exports', async () => {
      const imported = await probe(
        'import-entry-points.mjs',
        backendEntryPoints.map((entryPoint) => entryPoint.specifier),
      );
      for (const { specifier, source } of backendEntryPoints) {
        expect(imported[specifier], specifier).toEqual({ exports: await sourceExports(source) });
      }
    }, 60_000);

    it("loads backend entry points from CommonJS with import(); Node's require() refuses them, as they wait for their peer", async () => {
      const specifiers = backendEntryPoints.map((entryPoint) => entryPoint.specifier);
      const imported = await probe('require-entry-points.cjs', specifiers, ['--dynamic-import']);
      const required = await probe('require-entry-points.cjs', specifiers);
      for (const { specifier, source } of backendEntryPoints) {
        expect(imported[specifier], specifier).toEqual({ exports: await sourceExports(source) });
        expect(required[specifier].error, specifier).toMatchObject({
          code: 'ERR_REQUIRE_ASYNC_MODULE',
          message: expect.stringContaining('Use import() instead'),
        });
      }
    }, 60_000);

    it('type-checks an app that imports every entry point from ESM and from CommonJS (module NodeNext), with no export typed any', async () => {
      const anyExports =
        'type AnyExports<M> = { [K in keyof M]: 0 extends 1 & M[K] ? K : never }[keyof M];\ntype None<T extends never> = T;\n';
      const esm = entryPoints.map(
        ({ specifier }, index) =>
          `import * as entry${index} from '${specifier}';\nexport type Check${index} = None<AnyExports<typeof entry${index}>>;\n`,
      );
      const cjs = plainEntryPoints.map(
        ({ specifier }, index) =>
          `import entry${index} = require('${specifier}');\nexport type Check${index} = None<AnyExports<typeof entry${index}>>;\n`,
      );
      // A wrong import must fail, or the check proves nothing.
      const wrong = `import { notExported } from '${manifest.name}';\nexport const unused = notExported;\n`;
      await writeFile(path.join(app, 'entry-points.mts'), anyExports + esm.join(''));
      await writeFile(path.join(app, 'entry-points.cts'), anyExports + cjs.join(''));
      await writeFile(path.join(app, 'wrong-import.mts'), wrong);
      const compilerOptions = {
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2024',
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: ['node'],
      };
      const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
      await writeFile(
        path.join(app, 'tsconfig.json'),
        JSON.stringify({ compilerOptions, files: ['entry-points.mts', 'entry-points.cts'] }),
      );
      const checked = await runCommand(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: app });
      expect(checked, checked.stdout).toMatchObject({ code: 0 });
      await writeFile(path.join(app, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['wrong-import.mts'] }));
      const refused = await runCommand(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: app });
      expect(refused.stdout).toContain("has no exported member 'notExported'");
    }, 120_000);
  });
});
