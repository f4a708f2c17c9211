// The outbox and revision helpers (docs/adr/0009-outbox-and-self-healing-bus.md).
export {
  createOutbox,
  type Outbox,
  type OutboxDoc,
  type OutboxOptions,
  type OutboxPublishOptions,
  type OutboxVerifier,
  type StagedEvent,
} from './outbox.js';
export { applyIfNewer, eventIdFor, type ApplyIfNewerOptions, type ApplyOutcome } from './revision.js';
