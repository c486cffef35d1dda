import { createHash } from 'node:crypto';

/** Namespace of this library's point ids; changing it would orphan every stored point. */
const POINT_ID_NAMESPACE = Buffer.from('6f1c2b7e9d3a4e5fa1b2c3d4e5f60718', 'hex');

/**
 * Qdrant accepts only unsigned integers and UUIDs as point ids, so a document
 * id becomes a name-based UUID (version 5: SHA-1 of namespace and name). The
 * same document id always maps to the same point, which makes re-adding a
 * document replace it. A store with a required filter passes its `scope`
 * (`filterScope`): its documents get points of their own, so tenants never
 * share a point, whatever ids they choose.
 */
export function toPointId(documentId: string, scope?: string): string {
  const hash = createHash('sha1').update(POINT_ID_NAMESPACE);
  if (scope !== undefined) hash.update(`scope:${scope}\u0000`, 'utf8');
  hash.update(documentId, 'utf8');
  const digest = hash.digest();
  digest[6] = (digest[6] & 0x0f) | 0x50;
  digest[8] = (digest[8] & 0x3f) | 0x80;
  const hex = digest.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
