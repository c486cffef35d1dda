/** The body's bytes, or why it was not read to its end. */
export type BoundedBody = { readonly bytes: Buffer } | { readonly refused: 'too-large' | 'too-slow' };

/**
 * The request body, unless it is larger than `maxBytes` (refused from
 * `Content-Length` before reading, or as soon as the bytes read pass the
 * limit: the rest is never buffered) or has not fully arrived `timeoutMs`
 * after reading began (a client trickling bytes holds no handler for long).
 */
export async function readBoundedBody(
  request: Request,
  { maxBytes, timeoutMs }: { maxBytes: number; timeoutMs: number },
): Promise<BoundedBody> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await request.body?.cancel().catch(() => {});
    return { refused: 'too-large' };
  }
  if (request.body === null) return { bytes: Buffer.alloc(0) };
  const reader = request.body.getReader();
  const deadline = Promise.withResolvers<'too-slow'>();
  const timer = setTimeout(() => deadline.resolve('too-slow'), timeoutMs);
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const read = await Promise.race([reader.read(), deadline.promise]);
      if (read === 'too-slow' || (!read.done && (size += read.value.byteLength) > maxBytes)) {
        await reader.cancel().catch(() => {});
        return { refused: read === 'too-slow' ? 'too-slow' : 'too-large' };
      }
      if (read.done) break;
      chunks.push(read.value);
    }
  } finally {
    clearTimeout(timer);
  }
  return { bytes: Buffer.concat(chunks) };
}
