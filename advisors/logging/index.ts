export { loggingAdvisor, type AdvisorLogger, type LoggingAdvisorOptions } from './logging-advisor.ts';
