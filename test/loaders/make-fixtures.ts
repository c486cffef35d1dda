import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Document as DocxDocument, HeadingLevel, Packer, Paragraph } from 'docx';
import { PDFDocument, StandardFonts } from 'pdf-lib';

/** A PDF with the given page texts (an empty string makes a page without text) and optional title. */
export async function makePdf(pages: readonly string[], title?: string): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  if (title) pdf.setTitle(title);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const text of pages) {
    const page = pdf.addPage([400, 400]);
    if (text) page.drawText(text, { x: 30, y: 350, size: 12, font });
  }
  return pdf.save();
}

/** A DOCX with a Heading 1 and body paragraphs. */
export async function makeDocx(heading: string, paragraphs: readonly string[]): Promise<Uint8Array> {
  const document = new DocxDocument({
    sections: [
      {
        children: [new Paragraph({ text: heading, heading: HeadingLevel.HEADING_1 }), ...paragraphs.map((text) => new Paragraph(text))],
      },
    ],
  });
  return new Uint8Array(await Packer.toBuffer(document));
}

/** Writes files into a fresh temporary folder and returns their paths by name. */
export async function writeTempFiles(files: Record<string, Uint8Array | string>): Promise<Record<string, string>> {
  const folder = await mkdtemp(join(tmpdir(), 'ai-advisors-loaders-'));
  const paths: Record<string, string> = {};
  for (const [name, content] of Object.entries(files)) {
    paths[name] = join(folder, name);
    await writeFile(paths[name], content);
  }
  return paths;
}
