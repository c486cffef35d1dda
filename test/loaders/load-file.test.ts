import { describe, expect, it } from 'vitest';
import { AdvisorArgumentError } from '../../src/errors/index.ts';
import { DOCX_MEDIA_TYPE, loadFile } from '../../src/loaders/index.ts';
import { makeDocx, makePdf, writeTempFiles } from './make-fixtures.ts';

describe('loadFile', () => {
  it('chooses the loader by extension', async () => {
    const paths = await writeTempFiles({
      'a.txt': 'plain',
      'b.MD': '# Title\n\nBody',
      'c.htm': '<title>Page</title><p>Hello</p>',
      'd.pdf': await makePdf(['Page one']),
      'e.docx': await makeDocx('Heading', ['Body']),
    });
    const mediaTypes = await Promise.all(Object.values(paths).map(async (path) => (await loadFile(path))[0].metadata.mediaType));
    expect(mediaTypes).toEqual(['text/plain', 'text/markdown', 'text/html', 'application/pdf', DOCX_MEDIA_TYPE]);
  });

  it('lets a media type override the extension and passes format options through', async () => {
    const [document] = await loadFile({ data: '<p>Hi</p>', name: 'upload' }, { mediaType: 'text/html; charset=utf-8' });
    expect(document.text).toBe('Hi');
    const sections = await loadFile({ data: '# A\n\none\n\n# B\n\ntwo', name: 'x.md' }, { sections: true });
    expect(sections).toHaveLength(2);
  });

  it('rejects unsupported types with the list of supported ones', async () => {
    const failure = loadFile('slides.pptx');
    await expect(failure).rejects.toBeInstanceOf(AdvisorArgumentError);
    await expect(failure).rejects.toThrow(/"\.pptx" files; supported: \.txt.*\.pdf, \.docx/);
    await expect(loadFile({ data: 'x', name: 'x' }, { mediaType: 'image/png' })).rejects.toThrow(/image\/png/);
  });
});
