// Runs before anything loads the configuration: the suite always runs in test mode, quietly.
process.env.NODE_ENV = 'test';
process.env.LOG_LEVEL = process.env.LOG_LEVEL || 'silent';
process.env.RATE_LIMIT_MAX = process.env.RATE_LIMIT_MAX || '1000000';
process.env.RATE_LIMIT_ADDRESS_MAX = process.env.RATE_LIMIT_ADDRESS_MAX || '1000000';
process.env.RATE_LIMIT_AUTH_FAILURES_MAX = process.env.RATE_LIMIT_AUTH_FAILURES_MAX || '1000000';

// The suite's ICP-Brasil stand-in (tests/test-root-ca.js): a root CA made at test time, installed as the trusted roots.
require('./test-root-ca');
