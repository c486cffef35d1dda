/**
 * The size of a value as the characters of every string in it plus the bytes
 * of its binary data: what a message costs to store, send and parse, whatever
 * its shape. Recursive: call it on values whose depth is bounded (`checkNesting`).
 */
export function measureSize(value: unknown): number {
  if (typeof value === 'string') return value.length;
  if (value === null || typeof value !== 'object') return 0;
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return value.byteLength;
  let size = 0;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) size += measureSize(value[index]);
  } else {
    for (const key in value) if (Object.hasOwn(value, key)) size += measureSize((value as Record<string, unknown>)[key]);
  }
  return size;
}
