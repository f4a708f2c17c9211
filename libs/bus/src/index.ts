export { MemoryBus } from './memory.js';
export { memoryBroker, type MemoryBroker } from './memory-broker.js';
export { BusNoResponderError, BusTimeoutError, BusValidationError } from './port.js';
export type {
  Bus,
  BusClientOptions,
  BusHeaders,
  BusHealth,
  DeadLetter,
  EventContext,
  EventHandler,
  Headers,
  MessageContext,
  PublishOptions,
  RequestHandler,
  RequestOptions,
  SubscribeOptions,
  Subscription,
} from './port.js';
// What every adapter shares (bus-nats builds on it): the wire format, the retry verdicts, in-flight bookkeeping.
export * from './wire.js';
export * from './delivery.js';
export * from './inflight.js';
