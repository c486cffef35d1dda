import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';

/** Deepest nesting of objects and arrays accepted in untrusted values (messages, context values, metadata). */
export const MAX_NESTING_DEPTH = 100;

/**
 * Throws a clear `AdvisorArgumentError` naming the path when `value` nests
 * objects or arrays deeper than `maxDepth` or contains a cycle. The walk's
 * own depth is bounded by `maxDepth`, so a hostile 100,000-level value is
 * refused instead of overflowing the stack somewhere later (serialisation,
 * token counting, the provider call); a cycle is found when it runs past
 * that depth, so ordinary values pay for no bookkeeping but a path.
 */
export function checkNesting(
  value: unknown,
  { component, argument, maxDepth = MAX_NESTING_DEPTH }: { component: string; argument: string; maxDepth?: number },
): void {
  if (value === null || typeof value !== 'object') return;
  const walk: NestingWalk = { maxDepth, ancestors: [], keys: [] };
  if (withinDepth(value, walk)) return;
  const repeated = walk.ancestors.findIndex((ancestor, index) => walk.ancestors.indexOf(ancestor) !== index);
  const path = walk.keys.slice(0, repeated === -1 ? undefined : repeated).map((key) => (typeof key === 'number' ? `[${key}]` : `.${key}`));
  throw new AdvisorArgumentError({
    component,
    argument: `${argument}${path.join('')}`,
    message: repeated === -1 ? `nests objects and arrays deeper than ${maxDepth} levels` : 'contains a reference to itself',
  });
}

interface NestingWalk {
  readonly maxDepth: number;
  /** The objects from the root to the one being walked, and the key leading to each but the root. */
  readonly ancestors: object[];
  readonly keys: (string | number)[];
}

/** False, leaving the path to the offending value in `walk`, when `value` nests too deep. */
function withinDepth(value: object, walk: NestingWalk): boolean {
  walk.ancestors.push(value);
  if (walk.ancestors.length > walk.maxDepth) return false;
  // Binary data and other host objects hold no nested user values.
  if (!(ArrayBuffer.isView(value) || value instanceof ArrayBuffer || value instanceof URL || value instanceof Date)) {
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) {
        const child: unknown = value[index];
        if (child !== null && typeof child === 'object' && !withinChild(child, index, walk)) return false;
      }
    } else {
      for (const key in value) {
        if (!Object.hasOwn(value, key)) continue;
        const child = (value as Record<string, unknown>)[key];
        if (child !== null && typeof child === 'object' && !withinChild(child, key, walk)) return false;
      }
    }
  }
  walk.ancestors.pop();
  return true;
}

function withinChild(child: object, key: string | number, walk: NestingWalk): boolean {
  walk.keys.push(key);
  if (!withinDepth(child, walk)) return false;
  walk.keys.pop();
  return true;
}
