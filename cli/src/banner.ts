// What `murmur start` prints once it listens: where it really listens, from the address the server
// socket is bound to (not the URL Fastify prints, which names 127.0.0.1 for a server on 0.0.0.0), so
// whoever started it knows whether their network can reach it (README.md, "The two commands").

export interface BoundAddress {
  /** The socket's address: `127.0.0.1`, `0.0.0.0`, `::`, `::1`, `192.168.1.10`, … */
  address: string;
  port: number;
}

const ALL_INTERFACES = new Set(['0.0.0.0', '::']);
const LOOPBACK = /^(?:127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

function hostPort(address: string, port: number): string {
  return address.includes(':') ? `[${address}]:${port}` : `${address}:${port}`;
}

/** The banner's first line: the bound address, said plainly; then the public URL. */
export function listeningLine(bound: BoundAddress, publicUrl: string): string {
  const { address, port } = bound;
  let where: string;
  if (ALL_INTERFACES.has(address)) {
    const local = address === '::' ? `[::1]:${port}` : `127.0.0.1:${port}`;
    where =
      `on all interfaces (${hostPort(address, port)}) — reachable from your network; ` +
      `http://${local} on this machine`;
  } else if (LOOPBACK.test(address)) {
    where = `on http://${hostPort(address, port)} — this machine only (HOST=0.0.0.0 opens it to your network)`;
  } else {
    where = `on http://${hostPort(address, port)} — reachable at that address`;
  }
  return `Murmur is listening ${where}. Public URL: ${publicUrl}`;
}
