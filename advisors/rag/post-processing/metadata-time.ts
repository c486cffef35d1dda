/**
 * A metadata value as milliseconds since the epoch: a `Date`, an ISO 8601
 * string (or any string `Date.parse` reads), or a number of milliseconds.
 * Anything else, or an invalid date, is `undefined`.
 */
export function metadataTime(value: unknown): number | undefined {
  const time = value instanceof Date ? value.getTime() : typeof value === 'string' ? Date.parse(value) : value;
  return typeof time === 'number' && Number.isFinite(time) ? time : undefined;
}
