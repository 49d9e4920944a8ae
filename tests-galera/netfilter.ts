import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

/*
 * Network partitions on loopback for the Galera suite: the nodes listen on 127.0.0.2..4
 * (scripts/galera.sh) and an nftables table of the suite's own drops packets between them. Nothing
 * outside 127.0.0.0/8 is touched; the table is removed on heal (and before each cut, in case a run
 * died with one in place). Dropped, not rejected: a cut link goes silent, as a real partition does.
 */

const run = promisify(execFile);
const TABLE = 'galera_partition';

/** Whether nft can be used here (installed, and allowed to change the ruleset). */
export async function netfilterUsable(): Promise<string | null> {
  try {
    await run('nft', ['add', 'table', 'inet', `${TABLE}_probe`]);
    await run('nft', ['delete', 'table', 'inet', `${TABLE}_probe`]);
    return null;
  } catch (err) {
    return (err as Error).message.split('\n')[0];
  }
}

async function nft(script: string): Promise<void> {
  const child = run('nft', ['-f', '-']);
  child.child.stdin!.end(script);
  await child;
}

/** Removes every rule of the suite. */
export async function heal(): Promise<void> {
  await nft(`table inet ${TABLE}\ndelete table inet ${TABLE}\n`);
}

/** Drops, both ways, all traffic between the `group` addresses and the `others`. */
export async function cut(group: string[], others: string[]): Promise<void> {
  await heal();
  const set = (xs: string[]) => `{ ${xs.join(', ')} }`;
  await nft(
    [
      `table inet ${TABLE} {`,
      '  chain output {',
      '    type filter hook output priority 0; policy accept;',
      `    ip saddr ${set(group)} ip daddr ${set(others)} drop`,
      `    ip saddr ${set(others)} ip daddr ${set(group)} drop`,
      '  }',
      '}',
      '',
    ].join('\n'),
  );
}

/** Drops every packet to and from `address:port` (clients can no longer reach that server). */
export async function cutPort(address: string, port: number): Promise<void> {
  await heal();
  await nft(
    [
      `table inet ${TABLE} {`,
      '  chain output {',
      '    type filter hook output priority 0; policy accept;',
      `    ip daddr ${address} tcp dport ${port} drop`,
      `    ip saddr ${address} tcp sport ${port} drop`,
      '  }',
      '}',
      '',
    ].join('\n'),
  );
}
