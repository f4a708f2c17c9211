// The two kinds of bus message and how their subjects are named (docs/adr/0002-bus.md). Services never type a
// subject as a string literal: they import a definition from here and hand it to the bus.
import { z } from 'zod';

export interface RequestDef<Req, Res> {
  readonly kind: 'request';
  /** `<owner>.<entity>.<verb>` */
  readonly subject: string;
  /** The owning service; its replicas form the queue group that answers. */
  readonly owner: string;
  readonly request: z.ZodType<Req>;
  readonly response: z.ZodType<Res>;
}

export interface EventDef<D> {
  readonly kind: 'event';
  /** `evt.<producer>.<entity>.<verb>` */
  readonly subject: string;
  /** `<producer>.<entity>.<verb>`, stored in the envelope's `type`. */
  readonly type: string;
  readonly producer: string;
  readonly data: z.ZodType<D>;
}

const word = /^[a-z][a-z0-9_-]*$/;
function checkWords(...words: string[]): void {
  for (const w of words) if (!word.test(w)) throw new Error(`invalid subject word "${w}"`);
}

export function requestSubject(owner: string, entity: string, verb: string): string {
  checkWords(owner, entity, verb);
  return `${owner}.${entity}.${verb}`;
}

export function eventSubject(producer: string, entity: string, verb: string): string {
  checkWords(producer, entity, verb);
  return `evt.${producer}.${entity}.${verb}`;
}

/** Dead-lettered events of a durable group are republished here (see the bus port). */
export function deadLetterSubject(durable: string): string {
  checkWords(durable);
  return `dlq.${durable}`;
}

export function defineRequest<Req, Res>(
  owner: string,
  entity: string,
  verb: string,
  request: z.ZodType<Req>,
  response: z.ZodType<Res>,
): RequestDef<Req, Res> {
  return { kind: 'request', subject: requestSubject(owner, entity, verb), owner, request, response };
}

export function defineEvent<D>(
  producer: string,
  entity: string,
  verb: string,
  data: z.ZodType<D>,
): EventDef<D> {
  return {
    kind: 'event',
    subject: eventSubject(producer, entity, verb),
    type: `${producer}.${entity}.${verb}`,
    producer,
    data,
  };
}

/** The envelope every event travels in: `{ id, type, occurredAt, producer, data }`. */
export interface EventEnvelope<D> {
  id: string;
  type: string;
  occurredAt: string;
  producer: string;
  data: D;
}

export function eventEnvelopeSchema<D>(data: z.ZodType<D>) {
  return z.object({
    id: z.string().min(1),
    type: z.string().min(1),
    occurredAt: z.string().min(1),
    producer: z.string().min(1),
    data,
  });
}

/** An error carried back over request/reply: the platform error model, never a stack trace. */
export const busErrorSchema = z.object({
  status: z.number().int(),
  code: z.string(),
  message: z.string(),
  param: z.string().optional(),
});
export type BusError = z.infer<typeof busErrorSchema>;

/** What a responder sends back: the validated response, or an error. */
export const busReplySchema = z.union([
  z.object({ ok: z.literal(true), data: z.unknown() }),
  z.object({ ok: z.literal(false), error: busErrorSchema }),
]);
export type BusReply = z.infer<typeof busReplySchema>;

/** Header that carries the request id from the gateway through services and over the bus. */
export const REQUEST_ID_HEADER = 'x-request-id';
