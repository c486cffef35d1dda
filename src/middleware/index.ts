export { advisorMiddleware, type AdvisorMiddlewareOptions } from './advisor-middleware.ts';
