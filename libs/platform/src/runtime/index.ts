export {
  startService,
  type ServiceContext,
  type ServiceDefinition,
  type ServiceInstance,
  type StartOptions,
  type RunningService,
} from './service.js';
export { runServiceMain, type MainOptions } from './main.js';
export {
  HEAP_FLOOR_MB,
  YOUNG_GENERATION_CAP_MB,
  heapFloorFlag,
  launchFlags,
  warnWithoutHeapFloor,
  type HeapFloorProcess,
} from './heap.js';
