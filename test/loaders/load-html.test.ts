import { describe, expect, it } from 'vitest';
import { loadHtml } from '../../src/loaders/index.ts';

describe('loadHtml', () => {
  it('turns a page into readable text with its title, without scripts, styles, link targets or images', async () => {
    const html = `<!doctype html><html><head><title>Pricing</title><style>p { color: red }</style></head>
      <body><h1>Plans</h1><p>The <a href="https://example.com/pro">Pro plan</a> costs 10 EUR.</p>
      <img src="chart.png" alt="chart"><ul><li>Monthly</li><li>Yearly</li></ul>
      <script>track()</script></body></html>`;
    const [document] = await loadHtml({ data: html, name: 'pricing.html' });
    expect(document.metadata).toMatchObject({ title: 'Pricing', mediaType: 'text/html', fileName: 'pricing.html' });
    expect(document.text).toContain('Plans');
    expect(document.text).toContain('The Pro plan costs 10 EUR.');
    expect(document.text).toMatch(/Monthly[\s\S]*Yearly/);
    for (const absent of ['color: red', 'track()', 'https://example.com', 'chart.png', '<']) {
      expect(document.text).not.toContain(absent);
    }
  });

  it('falls back to the first h1 as the title', async () => {
    const [document] = await loadHtml({ data: '<h1>Only Heading</h1><p>Body</p>', name: 'fragment.html' });
    expect(document.metadata.title).toBe('Only Heading');
  });
});
