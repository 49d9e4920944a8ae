/*
 * DB_URL may name several hosts of one database (a Galera cluster): mysql://user:pass@h1:3306,h2:3306/db.
 * DB_HOSTS (h1:3306,h2:3306) replaces the URL's hosts. The service then keeps one URL for the driver
 * options (user, password, database, parameters; first host) and the list of hosts to spread over.
 */
export interface DbHost {
  host: string;
  port: number;
}

export interface DbTarget {
  /** The URL with the first host only: what a single-host client (TypeORM, mysql2) accepts. */
  url: string;
  hosts: DbHost[];
  /**
   * `?socketPath=/run/mysqld/mysqld.sock`: a database on this machine reached through its Unix socket
   * (mysql2's option of that name; host and port are then unused). A round trip through the socket
   * costs both processes less CPU than one through TCP on loopback.
   */
  socketPath?: string;
}

const URL_SHAPE = /^(mysql|mariadb):\/\/(?:([^@/?#]*)@)?([^/?#]+)(\/[^?#]*)?(\?[^#]*)?$/;
const HOST_SHAPE = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9._-]+)(?::(\d{1,5}))?$/;

export function parseHosts(list: string): DbHost[] {
  return list.split(',').map((entry) => {
    const m = HOST_SHAPE.exec(entry.trim());
    if (!m) throw new Error(`"${entry}" is not host[:port]`);
    const port = m[2] ? Number(m[2]) : 3306;
    if (port < 1 || port > 65535) throw new Error(`"${entry}" has no valid port`);
    return { host: m[1], port };
  });
}

/** Throws with a short reason when the URL (or the host list) is not usable. */
export function parseDbUrl(url: string, hostsOverride?: string): DbTarget {
  const m = URL_SHAPE.exec(url);
  if (!m) throw new Error('must be mysql://user:pass@host[:port][,host[:port]…]/database');
  const [, scheme, userinfo, hostList, path = '', query = ''] = m;
  const hosts = parseHosts(hostsOverride || hostList);
  const first = `${hosts[0].host}:${hosts[0].port}`;
  const single = `${scheme}://${userinfo !== undefined ? `${userinfo}@` : ''}${first}${path}${query}`;
  // The single-host form must be a URL the drivers can read.
  const socketPath = new URL(single).searchParams.get('socketPath') ?? undefined;
  if (socketPath !== undefined && (hosts.length > 1 || !socketPath.startsWith('/')))
    throw new Error('socketPath must be an absolute path, with one host');
  return socketPath === undefined ? { url: single, hosts } : { url: single, hosts, socketPath };
}
