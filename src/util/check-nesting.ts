import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';

/** Deepest nesting of objects and arrays accepted in untrusted values (messages, context values, metadata). */
export const MAX_NESTING_DEPTH = 100;

interface Visit {
  readonly value: object;
  readonly depth: number;
  readonly parent?: Visit;
  readonly key: string;
}

/**
 * Throws a clear `AdvisorArgumentError` naming the path when `value` nests
 * objects or arrays deeper than `maxDepth` or contains a cycle. Iterative,
 * so a hostile 100,000-level value is refused instead of overflowing the
 * stack somewhere later (serialisation, token counting, the provider call).
 */
export function checkNesting(
  value: unknown,
  { component, argument, maxDepth = MAX_NESTING_DEPTH }: { component: string; argument: string; maxDepth?: number },
): void {
  if (value === null || typeof value !== 'object' || holdsNoObjects(value)) return;
  const onPath = new Set<object>();
  const stack: (Visit | { leave: object })[] = [{ value, depth: 1, key: '' }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if ('leave' in item) {
      onPath.delete(item.leave);
      continue;
    }
    const fail = (message: string): never => {
      throw new AdvisorArgumentError({ component, argument: `${argument}${pathOf(item)}`, message });
    };
    if (item.depth > maxDepth) fail(`nests objects and arrays deeper than ${maxDepth} levels`);
    if (onPath.has(item.value)) fail('contains a reference to itself');
    onPath.add(item.value);
    stack.push({ leave: item.value });
    // Binary data and other host objects hold no nested user values.
    if (ArrayBuffer.isView(item.value) || item.value instanceof ArrayBuffer || item.value instanceof URL || item.value instanceof Date)
      continue;
    for (const [key, child] of Object.entries(item.value)) {
      if (child !== null && typeof child === 'object') {
        stack.push({ value: child, depth: item.depth + 1, parent: item, key: Array.isArray(item.value) ? `[${key}]` : `.${key}` });
      }
    }
  }
}

/** The common case (flat metadata, a context value of primitives) needs no walk: one level, no cycle possible. */
function holdsNoObjects(value: object): boolean {
  for (const key in value) {
    const child = (value as Record<string, unknown>)[key];
    if (child !== null && typeof child === 'object') return false;
  }
  return true;
}

function pathOf(visit: Visit): string {
  const keys: string[] = [];
  for (let current: Visit | undefined = visit; current !== undefined; current = current.parent) keys.push(current.key);
  return keys.reverse().join('');
}
