import { describe, expect, it } from 'vitest';
import { ComponentError } from '../../src/errors/index.ts';
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
});
