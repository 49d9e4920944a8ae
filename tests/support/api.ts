import supertest from 'supertest';
import { createApp } from '../../src/app';
import { contractViolation } from './contract';

/** One app for the whole suite (not listening; supertest drives it). */
export const app = createApp();

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** supertest on the app, with every response held to the OpenAPI document (tests/support/contract.ts). */
export const api = () => {
  const agent = supertest(app);
  for (const method of METHODS) {
    const make = agent[method].bind(agent);
    (agent as any)[method] = (url: string) => {
      const test = make(url);
      const end = test.end.bind(test);
      test.end = (fn: (err: any, res: any) => void) =>
        end((err: any, res: any) => {
          const violation = res ? contractViolation(method, url, res) : null;
          fn(violation ? Object.assign(new Error(`API contract: ${violation}`), { name: 'ContractError' }) : err, res);
        });
      return test;
    };
  }
  return agent;
};
