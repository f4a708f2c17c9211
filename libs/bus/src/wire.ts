// What travels on the bus and how it is checked. Encoding, validation and error mapping live here, once, so the
// memory and NATS adapters cannot drift apart: each adapter only moves strings and headers between clients.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import {
  busReplySchema,
  eventEnvelopeSchema,
  REQUEST_ID_HEADER,
  type BusReply,
  type EventDef,
  type EventEnvelope,
  type RequestDef,
} from '@murmur/contracts';
import { AppError, isAppError, type Logger } from '@murmur/core';
import {
  BusValidationError,
  type DeadLetter,
  type EventContext,
  type EventHandler,
  type Headers,
  type MessageContext,
  type RequestHandler,
} from './port.js';

export const DEFAULT_TIMEOUT_MS = 5000;
/** NATS refuses messages over its max_payload (1 MiB unless configured); memory enforces the same so tests see it. */
export const MAX_PAYLOAD_BYTES = 1024 * 1024;

export function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`).join('; ');
}

function encode(subject: string, value: unknown): string {
  const body = JSON.stringify(value);
  const size = Buffer.byteLength(body);
  if (size > MAX_PAYLOAD_BYTES) {
    throw new BusValidationError(subject, `encoded size ${size} bytes exceeds ${MAX_PAYLOAD_BYTES}`);
  }
  return body;
}

/** Lower-cases names, drops the broker's own `nats-*` headers and makes sure a request id is present. */
export function normalizeHeaders(headers: Iterable<[string, string]> | Headers | undefined): Headers {
  const entries =
    headers === undefined ? [] : Symbol.iterator in headers ? [...headers] : Object.entries(headers);
  const out: Headers = {};
  for (const [name, value] of entries) {
    const key = name.toLowerCase();
    if (!key.startsWith('nats-')) out[key] = value;
  }
  if (!out[REQUEST_ID_HEADER]) out[REQUEST_ID_HEADER] = randomUUID();
  return out;
}

/** The request body, validated before anything is sent (BusValidationError otherwise). */
export function encodeRequest<Req, Res>(def: RequestDef<Req, Res>, payload: Req): string {
  const parsed = def.request.safeParse(payload);
  if (!parsed.success) throw new BusValidationError(def.subject, describeIssues(parsed.error));
  return encode(def.subject, parsed.data);
}

function reply(r: BusReply): string {
  return JSON.stringify(r);
}

/**
 * Runs a request handler and always produces a reply body: the validated response, the handler's AppError, a 400
 * for a payload that fails the schema (the handler is not called) or a 500 that hides the cause (logged here).
 */
export async function answerRequest<Req, Res>(
  def: RequestDef<Req, Res>,
  body: string,
  ctx: MessageContext,
  handler: RequestHandler<Req, Res>,
  log: Logger,
): Promise<string> {
  let payload: unknown;
  try {
    payload = JSON.parse(body);
  } catch {
    return reply({
      ok: false,
      error: { status: 400, code: 'invalid_request', message: 'Request body is not JSON.' },
    });
  }
  const parsed = def.request.safeParse(payload);
  if (!parsed.success) {
    const param = parsed.error.issues[0]?.path.join('.');
    const message = `Invalid ${def.subject} request: ${describeIssues(parsed.error)}`;
    return reply({
      ok: false,
      error: { status: 400, code: 'invalid_request', message, ...(param ? { param } : {}) },
    });
  }
  let result: Res;
  try {
    result = await handler(parsed.data, ctx);
  } catch (err) {
    if (isAppError(err)) return reply({ ok: false, error: err.toJSON() });
    log.error(
      { err, subject: def.subject, requestId: ctx.headers[REQUEST_ID_HEADER] },
      'bus request handler failed',
    );
    return reply({ ok: false, error: { status: 500, code: 'internal_error', message: 'Internal error' } });
  }
  const response = def.response.safeParse(result);
  if (!response.success) {
    log.error(
      { subject: def.subject, issues: describeIssues(response.error) },
      'bus handler returned an invalid response',
    );
    return reply({ ok: false, error: { status: 500, code: 'internal_error', message: 'Internal error' } });
  }
  try {
    return encode(def.subject, { ok: true, data: response.data });
  } catch (err) {
    log.error({ err, subject: def.subject }, 'bus response too large');
    return reply({ ok: false, error: { status: 500, code: 'internal_error', message: 'Internal error' } });
  }
}

/** The requester's side of a reply: the response, or the responder's AppError rethrown here. */
export function readReply<Req, Res>(def: RequestDef<Req, Res>, body: string): Res {
  let parsed: BusReply;
  try {
    parsed = busReplySchema.parse(JSON.parse(body));
  } catch {
    throw new BusValidationError(def.subject, 'reply is not a bus reply');
  }
  if (!parsed.ok) {
    const { status, code, message, param } = parsed.error;
    throw new AppError(status, code, message, param === undefined ? {} : { param });
  }
  const response = def.response.safeParse(parsed.data);
  if (!response.success)
    throw new BusValidationError(def.subject, `reply: ${describeIssues(response.error)}`);
  return response.data;
}

/** Validates event data and wraps it in the envelope; throws BusValidationError when it does not fit. */
export function encodeEvent<D>(
  def: EventDef<D>,
  data: D,
  options: { id?: string; occurredAt?: string } = {},
): { envelope: EventEnvelope<D>; body: string } {
  const parsed = def.data.safeParse(data);
  if (!parsed.success) throw new BusValidationError(def.subject, describeIssues(parsed.error));
  if (options.id === '') throw new BusValidationError(def.subject, 'id: must not be empty');
  const envelope: EventEnvelope<D> = {
    id: options.id ?? randomUUID(),
    type: def.type,
    occurredAt: options.occurredAt ?? new Date().toISOString(),
    producer: def.producer,
    data: parsed.data,
  };
  return { envelope, body: encode(def.subject, envelope) };
}

/** An envelope checked against the event's schema, or the reason it is not one. */
export function decodeEvent<D>(
  def: EventDef<D>,
  body: string,
): { ok: true; envelope: EventEnvelope<D> } | { ok: false; error: string } {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { ok: false, error: 'invalid payload: not JSON' };
  }
  const parsed = eventEnvelopeSchema(def.data).safeParse(json);
  if (!parsed.success) return { ok: false, error: `invalid payload: ${describeIssues(parsed.error)}` };
  return { ok: true, envelope: parsed.data };
}

/** Whatever can be recovered of an envelope that failed, so a dead letter still shows what was sent. */
function salvageEnvelope(def: EventDef<unknown>, body: string): EventEnvelope<unknown> {
  try {
    const loose = eventEnvelopeSchema(z.unknown()).safeParse(JSON.parse(body));
    if (loose.success) return { ...loose.data, data: loose.data.data };
  } catch {
    // not JSON: keep the raw text below
  }
  return { id: '', type: def.type, occurredAt: '', producer: '', data: body };
}

export type DeliveryOutcome = { ok: true } | { ok: false; error: string; envelope: EventEnvelope<unknown> };

/** One delivery attempt of a durable event: a payload that fails its schema counts as a failed attempt. */
export async function deliverEvent<D>(
  def: EventDef<D>,
  body: string,
  ctx: EventContext,
  handler: EventHandler<D>,
): Promise<DeliveryOutcome> {
  const decoded = decodeEvent(def, body);
  if (!decoded.ok) return { ok: false, error: decoded.error, envelope: salvageEnvelope(def, body) };
  try {
    await handler(decoded.envelope, ctx);
    return { ok: true };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err), envelope: decoded.envelope };
  }
}

/** A non-durable delivery (listen): at most once and never retried, so a failure is only logged. */
export async function deliverToListener<D>(
  def: EventDef<D>,
  body: string,
  headers: Headers,
  handler: EventHandler<D>,
  log: Logger,
): Promise<void> {
  const decoded = decodeEvent(def, body);
  if (!decoded.ok) {
    log.warn({ subject: def.subject, error: decoded.error }, 'bus listener skipped an invalid event');
    return;
  }
  try {
    await handler(decoded.envelope, { headers, deliveryCount: 1 });
  } catch (err) {
    log.warn({ err, subject: def.subject, eventId: decoded.envelope.id }, 'bus listener failed');
  }
}

const deadLetterSchema = z.object({
  durable: z.string(),
  subject: z.string(),
  envelope: eventEnvelopeSchema(z.unknown()),
  deliveries: z.number().int(),
  error: z.string(),
});

/** Dead-letter subjects are open to any publisher on NATS, so what arrives there is checked like everything else. */
export function decodeDeadLetter(body: string): DeadLetter | undefined {
  try {
    const parsed = deadLetterSchema.safeParse(JSON.parse(body));
    if (!parsed.success) return undefined;
    const { envelope } = parsed.data;
    return { ...parsed.data, envelope: { ...envelope, data: envelope.data } };
  } catch {
    return undefined;
  }
}
