// The NATS adapter of the bus port (docs/adr/0002-bus.md): core request/reply and JetStream events.
export { NatsBus } from './nats.js';
export { EVENTS_STREAM, DEADLETTER_STREAM, consumerName } from './nats-streams.js';
