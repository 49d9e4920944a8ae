import crypto from 'node:crypto';

/*
 * Webhook requests carry `Webhook-Timestamp` (unix seconds) and `Webhook-Signature: v1=<hex>` where
 * hex = HMAC-SHA256(secret, `${timestamp}.${body}`). Receivers recompute it, compare in constant
 * time, reject old timestamps (replays) and dedupe by `Webhook-Id` (the event id).
 */
export function signWebhook(secret: string, timestamp: number, body: string): string {
  return `v1=${crypto.createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

export function verifyWebhook(
  secret: string,
  timestamp: number,
  body: string,
  signature: string,
  toleranceSeconds = 300,
  now = Date.now(),
): boolean {
  if (!Number.isFinite(timestamp) || Math.abs(now / 1000 - timestamp) > toleranceSeconds) return false;
  const expected = Buffer.from(signWebhook(secret, timestamp, body));
  const given = Buffer.from(signature);
  return expected.length === given.length && crypto.timingSafeEqual(expected, given);
}
