import { AdvisorArgumentError } from '../errors/advisor-argument-error.ts';
import type { Advisor } from './advisor.ts';

const HOOKS = ['before', 'after', 'aroundCall', 'aroundStream'] as const;

/** Checks each advisor's shape and that names are unique; throws before any call. */
export function validateAdvisors(advisors: readonly unknown[]): asserts advisors is readonly Advisor[] {
  if (!Array.isArray(advisors)) {
    throw new AdvisorArgumentError({ component: 'advisor-chain', argument: 'advisors', message: 'expected an array of advisors' });
  }
  const seen = new Set<string>();
  advisors.forEach((candidate, index) => {
    const where = `advisors[${index}]`;
    if (candidate === null || typeof candidate !== 'object') {
      throw new AdvisorArgumentError({ component: 'advisor-chain', argument: where, message: 'expected an advisor object' });
    }
    const advisor = candidate as Record<string, unknown>;
    if (typeof advisor.name !== 'string' || advisor.name.trim() === '') {
      throw new AdvisorArgumentError({
        component: 'advisor-chain',
        argument: `${where}.name`,
        message: 'every advisor needs a non-empty name (its metadata is exposed under it)',
      });
    }
    const name = advisor.name;
    if (advisor.order !== undefined && (typeof advisor.order !== 'number' || !Number.isFinite(advisor.order))) {
      throw new AdvisorArgumentError({
        component: 'advisor-chain',
        argument: `${where}.order`,
        message: `advisor "${name}" has order ${JSON.stringify(advisor.order)}; expected a finite number`,
      });
    }
    for (const hook of HOOKS) {
      if (advisor[hook] !== undefined && typeof advisor[hook] !== 'function') {
        throw new AdvisorArgumentError({
          component: 'advisor-chain',
          argument: `${where}.${hook}`,
          message: `advisor "${name}": ${hook} must be a function`,
        });
      }
    }
    if (!HOOKS.some((hook) => typeof advisor[hook] === 'function')) {
      throw new AdvisorArgumentError({
        component: 'advisor-chain',
        argument: where,
        message: `advisor "${name}" has none of ${HOOKS.join(', ')}`,
      });
    }
    if (seen.has(name)) {
      throw new AdvisorArgumentError({
        component: 'advisor-chain',
        argument: `${where}.name`,
        message: `two advisors are named "${name}"; names must be unique because each advisor's metadata lives under its name`,
      });
    }
    seen.add(name);
  });
}
