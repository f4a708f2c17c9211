// What a server answers when Node's HTTP parser cannot read a request at all (a request target that is
// not a path, a malformed header, headers over the limit). The request's method is unknown then — it may
// be HEAD, whose answer must carry no body — so the answer is a status line with an empty body, and the
// connection closes: the bytes that follow cannot be trusted to start the next request.
import type { Socket } from 'node:net';

const STATUS: Record<string, string> = {
  HPE_HEADER_OVERFLOW: '431 Request Header Fields Too Large',
  ERR_HTTP_REQUEST_TIMEOUT: '408 Request Timeout',
  HPE_CHUNK_EXTENSIONS_OVERFLOW: '413 Payload Too Large',
};

/** Fastify's `clientErrorHandler`: every service and the gateway answer unreadable requests the same way. */
export function answerUnreadableRequest(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const status = STATUS[err.code ?? ''] ?? '400 Bad Request';
  socket.end(`HTTP/1.1 ${status}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
}
