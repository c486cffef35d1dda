import type { Advisor } from './advisor.ts';

/** Ascending `order`; ties keep registration order (Array.prototype.sort is stable). */
export function sortAdvisors(advisors: readonly Advisor[]): readonly Advisor[] {
  return Object.freeze([...advisors].sort((a, b) => (a.order ?? 0) - (b.order ?? 0)));
}
