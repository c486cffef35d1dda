/** True for `{}` literals, `Object.create(null)` and parsed JSON objects; false for arrays, class instances, dates. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
