export { chatRoute, type ChatRequestBody, type ChatRouteErrorPhase, type ChatRouteOptions } from './chat-route.ts';
