import { execFile } from 'node:child_process';
import { cp, mkdir, readdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** What building and packing needs from a checkout; the tarball's own contents are decided by package.json `files`. */
const PACKING_INPUTS = ['package.json', 'README.md', 'LICENSE', 'tsconfig.json', 'tsconfig.build.json', 'src', 'advisors'];

export interface CommandResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs a command to its end and reports how it ended, without throwing on a
 * non-zero exit. npm's script variables and NODE_OPTIONS are left out, so an
 * `npm` run by `npm test` acts on its own folder as a user's would.
 */
export function runCommand(command: string, args: readonly string[], { cwd }: { cwd: string }): Promise<CommandResult> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('npm_') && name !== 'NODE_OPTIONS'));
  return new Promise((resolve) => {
    execFile(command, args, { cwd, env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
      resolve({ code, stdout, stderr: error !== null && stderr === '' ? error.message : stderr });
    });
  });
}

/** Runs a command and returns its output, or throws with the output when it fails. */
export async function runOrThrow(command: string, args: readonly string[], options: { cwd: string }): Promise<CommandResult> {
  const result = await runCommand(command, args, options);
  if (result.code !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.code}:\n${result.stdout}\n${result.stderr}`);
  return result;
}

/**
 * Packs the library as `npm publish` would (its `prepack` script builds
 * `dist/`), from a copy of the checkout's sources, so that the working tree's
 * `dist/` is neither needed nor touched. Returns the tarball's path.
 */
export async function packLibrary({ directory }: { directory: string }): Promise<string> {
  const checkout = path.join(directory, 'checkout');
  await mkdir(checkout, { recursive: true });
  await Promise.all(PACKING_INPUTS.map((input) => cp(path.join(ROOT, input), path.join(checkout, input), { recursive: true })));
  // The build's compiler and type definitions are the checkout's development dependencies.
  await symlink(path.join(ROOT, 'node_modules'), path.join(checkout, 'node_modules'), 'dir');
  await runOrThrow('npm', ['pack', '--pack-destination', directory], { cwd: checkout });
  const [tarball] = (await readdir(directory)).filter((name) => name.endsWith('.tgz'));
  if (tarball === undefined) throw new Error(`npm pack wrote no tarball into ${directory}`);
  return path.join(directory, tarball);
}

/** Creates an empty app in `directory` and installs `packages` into it as a user's `npm install` would. */
export async function createApp({ directory, packages }: { directory: string; packages: readonly string[] }): Promise<string> {
  await mkdir(directory, { recursive: true });
  await writeFile(
    path.join(directory, 'package.json'),
    `${JSON.stringify({ name: 'packed-app', private: true, type: 'module' }, null, 2)}\n`,
  );
  await installInto({ app: directory, packages });
  return directory;
}

/** `npm install` into an app; the cache the checkout's own install filled answers most of it. */
export async function installInto({ app, packages }: { app: string; packages: readonly string[] }): Promise<void> {
  await runOrThrow('npm', ['install', ...packages, '--no-audit', '--no-fund', '--prefer-offline'], { cwd: app });
}
