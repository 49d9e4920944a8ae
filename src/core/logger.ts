import winston from 'winston';
import { config } from './config';
import { encodeId } from './hashids';
import { currentScope } from './request-context';

// Adds the request id and company (its hashid: logs never carry internal ids) of the current request to every line written inside it.
const withScope = winston.format((info) => {
  const scope = currentScope();
  if (scope) {
    info.requestId ??= scope.requestId;
    if (scope.companyId !== undefined) info.company ??= encodeId('company', scope.companyId);
  }
  return info;
});

const silent = config.log.level === 'silent';

export const logger = winston.createLogger({
  level: silent ? 'error' : config.log.level,
  silent,
  format: winston.format.combine(
    winston.format.timestamp(),
    withScope(),
    config.log.format === 'pretty'
      ? winston.format.printf(
          ({ level, message, timestamp, ...rest }) => `${String(timestamp)} ${level} ${String(message)} ${JSON.stringify(rest)}`,
        )
      : winston.format.json(),
  ),
  transports: [new winston.transports.Console()],
});
