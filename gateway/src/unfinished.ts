// Answers that never finish. A response whose connection closes before its last byte was written is
// one of two things, and the request log and the metrics say which:
// - the client hung up (a tab closed, a reader app sent to the background, a load generator stopping):
//   ordinary traffic, logged at info as "client closed the connection" and counted under status 499,
//   nginx's "client closed request" — never as a gateway error or as a service that did not answer,
//   which is what an operator's alerting watches;
// - the gateway cut it (the service stopped sending mid-body, a body timeout, a shutdown closing the
//   connections it waited for): logged as a warning, "answer cut short", with the status already sent.
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from '@murmur/core';
import type { GatewayMetrics } from './metrics.js';

/** The status nginx logs for a request whose client closed the connection before the answer. */
export const CLIENT_CLOSED_REQUEST = 499;

/**
 * Whether the client's side of the connection ended or was reset, rather than this process closing it.
 * `socket` is the request's, held from its start: a closed request no longer refers to it.
 */
export function clientHungUp(socket: Socket): boolean {
  if (socket.readableEnded) return true;
  const errored = (socket as Socket & { errored?: NodeJS.ErrnoException | null }).errored;
  return errored?.code === 'ECONNRESET' || errored?.code === 'EPIPE';
}

/** Whether the response's connection closed before its end was written (the answer will never finish). */
export function answerAbandoned(res: ServerResponse): boolean {
  return res.destroyed && !res.writableFinished;
}

/** What the request log says of a request the gateway handed on. */
export interface HandedRequest {
  requestId: string;
  service: string;
  method: string;
  url: string;
  /** The request's connection, held from its start. */
  socket: Socket;
  /** The client's address. */
  ip: string | undefined;
  /** performance.now() when the request arrived. */
  startedAt: number;
}

/**
 * Logs and counts an answer that will never finish (call once, from the response's `close` when
 * `writableFinished` is false). The line has the shape of the "request completed" line.
 */
export function reportUnfinished(
  logger: Logger,
  metrics: GatewayMetrics,
  res: ServerResponse,
  request: HandedRequest,
): void {
  const byClient = clientHungUp(request.socket);
  logRequest(
    logger,
    metrics,
    request,
    byClient ? CLIENT_CLOSED_REQUEST : res.statusCode,
    byClient ? 'info' : 'warn',
    byClient ? 'client closed the connection' : 'answer cut short',
  );
}

/** Logs and counts a request whose response has closed, finished (`request completed`) or not. */
export function reportClosed(
  logger: Logger,
  metrics: GatewayMetrics,
  res: ServerResponse,
  request: HandedRequest,
): void {
  if (res.writableFinished) logRequest(logger, metrics, request, res.statusCode, 'info', 'request completed');
  else reportUnfinished(logger, metrics, res, request);
}

function logRequest(
  logger: Logger,
  metrics: GatewayMetrics,
  request: HandedRequest,
  status: number,
  level: 'info' | 'warn',
  message: string,
): void {
  metrics.countRequest(request.service, status);
  if (!logger.isLevelEnabled(level)) return;
  logger[level](
    {
      requestId: request.requestId,
      req: { method: request.method, url: request.url, ip: request.ip },
      res: { statusCode: status },
      upstream: request.service,
      responseTime: Math.round((performance.now() - request.startedAt) * 10) / 10,
    },
    message,
  );
}
