import type { Store } from 'express-rate-limit';
import { RedisStore } from 'rate-limit-redis';
import { createClient } from 'redis';

/**
 * Shared rate-limit counters for replicas (SPEC §0 scale-out): a Redis store when REDIS_URL is set.
 * Without it the counters live in the process, which is right for the single embedded shop.
 */
export async function createRedisRateLimitStore(url: string, prefix = 'rl:'): Promise<{ store: Store; close: () => Promise<void> }> {
  const client = createClient({ url });
  await client.connect();
  const store = new RedisStore({ prefix, sendCommand: (...args: string[]) => client.sendCommand(args) });
  return { store, close: async () => void (await client.quit()) };
}
