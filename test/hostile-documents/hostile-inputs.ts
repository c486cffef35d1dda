import { constants, crc32, createDeflate, createDeflateRaw, deflateRawSync, deflateSync } from 'node:zlib';

/** A run of `bytes` bytes of `fill` (plus a head and tail) as it streams through a deflater: `bytes` can exceed what fits in memory. */
async function deflateRun(
  { head, fill, bytes, tail }: { head: string; fill: string; bytes: number; tail: string },
  format: 'raw' | 'zlib',
): Promise<{ compressed: Buffer; crc: number; size: number }> {
  const deflater = format === 'raw' ? createDeflateRaw({ level: 6 }) : createDeflate({ level: 6 });
  const output: Buffer[] = [];
  deflater.on('data', (chunk: Buffer) => output.push(chunk));
  const ended = new Promise((resolve, reject) => deflater.on('end', resolve).on('error', reject));
  const step = Buffer.alloc(1024 * 1024, fill);
  let crc = crc32(head);
  const write = (chunk: Buffer | string) => (deflater.write(chunk) ? undefined : new Promise((resolve) => deflater.once('drain', resolve)));
  await write(head);
  for (let left = bytes; left > 0; left -= step.length) {
    const chunk = left >= step.length ? step : step.subarray(0, left);
    crc = crc32(chunk, crc);
    await write(chunk);
  }
  await write(tail);
  crc = crc32(tail, crc);
  deflater.end();
  await ended;
  return { compressed: Buffer.concat(output), crc, size: Buffer.byteLength(head) + bytes + Buffer.byteLength(tail) };
}

interface ZipEntry {
  readonly name: string;
  readonly compressed: Buffer;
  readonly crc: number;
  /** What the directory says the entry inflates to; a zip bomb may lie. */
  readonly declaredSize: number;
}

/** A zip of deflated entries, written as a zip writer would (local headers, central directory, end record). */
function zip(entries: readonly ZipEntry[]): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(entry.crc >>> 0, 14);
    local.writeUInt32LE(entry.compressed.length, 18);
    local.writeUInt32LE(entry.declaredSize, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(entry.crc >>> 0, 16);
    central.writeUInt32LE(entry.compressed.length, 20);
    central.writeUInt32LE(entry.declaredSize, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, entry.compressed);
    centrals.push(central, name);
    offset += local.length + name.length + entry.compressed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, directory, end]));
}

function smallEntry(name: string, text: string): ZipEntry {
  return { name, compressed: deflateRawSync(text), crc: crc32(text), declaredSize: Buffer.byteLength(text) };
}

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';

/**
 * A DOCX whose `word/document.xml` holds one paragraph of `textBytes` letters:
 * about 1 KB per MB of XML. `declaredSize` makes the zip directory lie about it.
 */
export async function docxBomb({ textBytes, declaredSize }: { textBytes: number; declaredSize?: number }): Promise<Uint8Array> {
  const document = await deflateRun(
    { head: `<w:document ${W}><w:body><w:p><w:r><w:t>`, fill: 'a', bytes: textBytes, tail: '</w:t></w:r></w:p></w:body></w:document>' },
    'raw',
  );
  return zip([
    smallEntry(
      '[Content_Types].xml',
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    ),
    smallEntry(
      '_rels/.rels',
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    ),
    { name: 'word/document.xml', compressed: document.compressed, crc: document.crc, declaredSize: declaredSize ?? document.size },
  ]);
}

/**
 * A PDF written by hand: `pageCount` entries in its page tree, all the same
 * page, whose content stream shows `text` followed by `padding` bytes of
 * spaces, Flate-compressed (so a few hundred KB can inflate to hundreds of MB).
 */
export async function rawPdf({ pageCount, text, padding = 0 }: { pageCount: number; text: string; padding?: number }): Promise<Uint8Array> {
  const content = `BT /F1 12 Tf 20 100 Td (${text}) Tj ET\n`;
  const stream =
    padding > 0
      ? (await deflateRun({ head: content, fill: ' ', bytes: padding, tail: '' }, 'zlib')).compressed
      : deflateSync(content, { level: constants.Z_DEFAULT_COMPRESSION });
  const objects: (string | Buffer)[][] = [
    ['<< /Type /Catalog /Pages 2 0 R >>'],
    [`<< /Type /Pages /Kids [${'3 0 R '.repeat(pageCount)}] /Count ${pageCount} >>`],
    ['<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>'],
    [`<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`, stream, '\nendstream'],
    ['<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'],
  ];
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n')];
  const offsets: number[] = [];
  let length = parts[0].length;
  objects.forEach((body, index) => {
    offsets.push(length);
    for (const piece of [`${index + 1} 0 obj\n`, ...body, '\nendobj\n']) {
      const bytes = typeof piece === 'string' ? Buffer.from(piece, 'latin1') : piece;
      parts.push(bytes);
      length += bytes.length;
    }
  });
  const xref = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`;
  parts.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`, 'latin1'));
  return new Uint8Array(Buffer.concat(parts));
}
