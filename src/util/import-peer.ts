import { ComponentError } from '../errors/component-error.ts';

export interface ImportPeerOptions<T> {
  /** The optional peer dependency, as it is installed: `pg`, `@qdrant/js-client-rest`. */
  readonly packageName: string;
  /** The entry point that needs it, named in the error: `ai-advisors/postgres`. */
  readonly entryPoint: string;
  /** Imports the package: `() => import('pg')`. */
  readonly load: () => Promise<T>;
}

/**
 * Imports an optional peer dependency for a backend entry point. When the
 * package is not installed, throws a `ComponentError` that says which package
 * to install and how, instead of Node's `ERR_MODULE_NOT_FOUND` from deep
 * inside the library. Any other failure (a broken install) is rethrown as is.
 */
export async function importPeer<T>({ packageName, entryPoint, load }: ImportPeerOptions<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (!isPackageNotFound(error, packageName)) throw error;
    throw new ComponentError({
      component: entryPoint,
      operation: `import ${packageName}`,
      cause: error,
      message: `the optional peer dependency "${packageName}" is not installed: npm install ${packageName}`,
    });
  }
}

/** Node (`ERR_MODULE_NOT_FOUND`, `MODULE_NOT_FOUND`) and bundlers name the missing package in quotes. */
function isPackageNotFound(error: unknown, packageName: string): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  const notFound = code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND' || /cannot find (package|module)/i.test(error.message);
  return notFound && [`'${packageName}'`, `"${packageName}"`].some((quoted) => error.message.includes(quoted));
}
