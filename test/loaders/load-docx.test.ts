import { describe, expect, it } from 'vitest';
import { ComponentError, DocumentLimitError } from '../../src/errors/index.ts';
import { DOCX_MEDIA_TYPE, loadDocx } from '../../src/loaders/index.ts';
import { makeDocx } from './make-fixtures.ts';

describe('loadDocx', () => {
  it('extracts the text of a Word document with its first heading as title', async () => {
    const bytes = await makeDocx('Travel Policy', ['Book economy class.', 'Receipts are due within 30 days.']);
    const [document] = await loadDocx({ data: bytes, name: 'policy.docx' });
    expect(document.id).toBe('policy.docx');
    expect(document.metadata).toMatchObject({ title: 'Travel Policy', mediaType: DOCX_MEDIA_TYPE });
    expect(document.text).toMatch(/^Travel Policy\s+Book economy class\.\s+Receipts are due within 30 days\.$/);
  });

  it('reports bytes that are not a DOCX as a docx-loader ComponentError', async () => {
    await expect(loadDocx({ data: 'plain text', name: 'fake.docx' })).rejects.toBeInstanceOf(ComponentError);
  });

  it('refuses a DOCX whose XML parts inflate past maxDecompressedBytes before mammoth reads it', async () => {
    const bytes = await makeDocx('Travel Policy', ['Book economy class.']);
    const failure = await loadDocx({ data: bytes, name: 'policy.docx' }, { maxDecompressedBytes: 1000 }).catch((error: unknown) => error);
    expect(DocumentLimitError.isInstance(failure)).toBe(true);
    expect((failure as Error).message).toMatch(
      /^docx-loader: invalid source: "policy.docx" declares [\d,]+ bytes when inflated \(maxDecompressedBytes: 1,000\)$/,
    );
  });

  it('holds the HTML and text to maxCharacters, or cuts them with onLimit: truncate', async () => {
    const bytes = await makeDocx('Travel Policy', ['Book economy class.']);
    await expect(loadDocx({ data: bytes, name: 'policy.docx' }, { maxCharacters: 40 })).rejects.toThrow(
      /"policy.docx" has 48 characters of HTML \(maxCharacters: 40\)$/,
    );
    const [document] = await loadDocx({ data: bytes, name: 'policy.docx' }, { maxCharacters: 40, onLimit: 'truncate' });
    expect(document.text).toMatch(/^Travel Policy\s+Book economy cl$/);
    expect(document.metadata.truncated).toEqual({ limit: 'maxCharacters', max: 40 });
  });
});
