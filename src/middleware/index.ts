export { advisorMiddleware, type AdvisorMiddlewareOptions } from './advisor-middleware.ts';
export { guardServerTools, type GuardServerToolsOptions } from './guard-server-tools.ts';
