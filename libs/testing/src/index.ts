// Helpers for tests across the workspace. Not imported by production code.
export { freePort } from './ports.js';
export { testLogger } from './logger.js';
export { collectLogLines, type LogLine } from './log-lines.js';
export { sendOverWire, send, basicAuth, type WireRequest, type WireResponse } from './http.js';
export { TestClock, eventually } from './clock.js';
export {
  startFakeIdentity,
  type FakeIdentity,
  type FakeIdentityOptions,
  type FakeUser,
  type FakeToken,
} from './identity.js';
export { startSmtpCapture, type SmtpCapture, type CapturedMail } from './smtp.js';
export {
  startNatsServer,
  natsServerAvailable,
  natsServerBinary,
  describeWithNats,
  type NatsServerHandle,
} from './nats-server.js';
export { traceEvents, type EventTrail, type EventTrailQuery, type TrailEnvelope } from './event-trail.js';
export { testServices, testServiceEnv, type TestServices, type TestServiceOptions } from './services.js';
