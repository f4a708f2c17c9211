export * from './concurrency/index.js';
export * from './config/index.js';
export * from './errors/index.js';
export * from './ids/index.js';
export * from './log/index.js';
export * from './mail/index.js';
export * from './memo/index.js';
export * from './time/index.js';
export {
  HEAP_FLOOR_MB,
  YOUNG_GENERATION_CAP_MB,
  heapFloorFlag,
  launchFlags,
  warnWithoutHeapFloor,
  type HeapFloorProcess,
} from './heap.js';
