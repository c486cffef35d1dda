/**
 * Drops the largest droppable entries of `metadata` until its JSON fits in
 * `maxBytes`, and names what was dropped in `omitted`. `droppable` lists
 * paths of one or two keys (`['sources']`, `['advisors', 'rag']`); anything
 * else is always kept, so it must be small by construction.
 */
export function fitToBytes({
  metadata,
  maxBytes,
  droppable,
}: {
  metadata: Record<string, unknown>;
  maxBytes: number;
  droppable: readonly (readonly [string] | readonly [string, string])[];
}): Record<string, unknown> {
  if (byteLength(metadata) <= maxBytes) return metadata;
  const fitted = structuredClone(metadata);
  const omitted: string[] = [];
  const candidates = droppable
    .map((path) => ({ path, bytes: byteLength(valueAt(fitted, path)) }))
    .filter((candidate) => candidate.bytes > 0)
    .sort((a, b) => b.bytes - a.bytes);
  for (const { path } of candidates) {
    removeAt(fitted, path);
    omitted.push(path.join('.'));
    if (byteLength({ ...fitted, omitted }) <= maxBytes) break;
  }
  return { ...fitted, omitted };
}

function byteLength(value: unknown): number {
  const json = JSON.stringify(value);
  return json === undefined ? 0 : new TextEncoder().encode(json).length;
}

function valueAt(metadata: Record<string, unknown>, [key, child]: readonly [string] | readonly [string, string]): unknown {
  const value = metadata[key];
  return child === undefined ? value : (value as Record<string, unknown> | undefined)?.[child];
}

function removeAt(metadata: Record<string, unknown>, [key, child]: readonly [string] | readonly [string, string]): void {
  if (child === undefined) delete metadata[key];
  else delete (metadata[key] as Record<string, unknown>)[child];
}
