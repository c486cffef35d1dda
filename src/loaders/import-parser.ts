import { ComponentError } from '../errors/component-error.ts';

/**
 * Imports a parser package on first use, so that loading plain text never pulls
 * in the PDF or DOCX parsers, and says which package to install when it is missing.
 */
export async function importParser<T>(component: string, packageName: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    throw new ComponentError({
      component,
      operation: `import ${packageName}`,
      cause: error,
      message: `the "${packageName}" package is needed: npm install ${packageName} (${(error as Error).message})`,
    });
  }
}
