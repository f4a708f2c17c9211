// A service's lifecycle (docs/service-template.md): declared by the service, run here; the store and bus
// chosen by URL.
export { openBlobStore, type OpenBlobStoreOptions } from './open-blobs.js';
export { connectBus } from './connect-bus.js';
export {
  startService,
  type ServiceContext,
  type ServiceDefinition,
  type ServiceInstance,
  type StartOptions,
  type RunningService,
} from './service.js';
export {
  defineService,
  type ServiceDeclaration,
  type ServiceRuntime,
  type ServiceHttpOptions,
  type JobsSpec,
  type OutboxSpec,
  type Worker,
} from './define.js';
export { runServiceMain, type MainOptions } from './main.js';
export { openStore, type OpenStoreOptions } from './open-store.js';
