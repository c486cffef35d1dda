import { describe, expect, it } from 'vitest';
import { AdvisorArgumentError } from '../../src/errors/index.ts';
import { loadText } from '../../src/loaders/index.ts';
import { writeTempFiles } from './make-fixtures.ts';

describe('loadText', () => {
  it('loads a UTF-8 file as one document identified by its path, dropping the byte-order mark', async () => {
    const { 'notes.txt': path } = await writeTempFiles({ 'notes.txt': '\uFEFFPremier jour. 第一天。\n' });
    const [document, ...rest] = await loadText(path);
    expect(rest).toEqual([]);
    expect(document.id).toBe(path);
    expect(document.text).toBe('Premier jour. 第一天。\n');
    expect(document.metadata).toMatchObject({ source: path, fileName: 'notes.txt', mediaType: 'text/plain' });
  });

  it('loads in-memory data under its name, with a custom id and metadata that win over the defaults', async () => {
    const [document] = await loadText(
      { data: new TextEncoder().encode('uploaded'), name: 'upload.txt' },
      { id: 'upload-1', metadata: { tenant: 'acme', mediaType: 'text/x-log' } },
    );
    expect(document).toEqual({
      id: 'upload-1',
      text: 'uploaded',
      metadata: { source: 'upload.txt', fileName: 'upload.txt', mediaType: 'text/x-log', tenant: 'acme' },
    });
  });

  it('rejects an unknown option, a bad source and an aborted signal before reading', async () => {
    await expect(loadText('x.txt', { encodign: 'latin1' } as never)).rejects.toThrow(/unknown option "encodign"/);
    await expect(loadText({ data: 'x' } as never)).rejects.toBeInstanceOf(AdvisorArgumentError);
    await expect(loadText('x.txt', { abortSignal: AbortSignal.abort() })).rejects.toThrow(/abort/i);
  });

  it('fails with the file system error for a missing file', async () => {
    await expect(loadText('/nonexistent/file.txt')).rejects.toThrow(/ENOENT/);
  });
});
