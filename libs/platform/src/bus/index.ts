// The bus (docs/adr/0002-bus.md): one port, two adapters, one contract suite (libs/platform/test/bus/).
export { connectBus } from './connect.js';
export { MemoryBus } from './memory.js';
export { memoryBroker, type MemoryBroker } from './memory-broker.js';
export type { NatsBus } from './nats.js';
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
