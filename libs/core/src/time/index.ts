export {
  formatHttpDate,
  formatOffsetTime,
  formatReaderTime,
  formatXmlRpcTime,
  microsToDate,
  toMicros,
  type Instant,
} from './format.js';
export { parseTimestamp, type ParsedTimestamp } from './parse.js';
export { MicrosecondClock, systemClock, type Clock } from './clock.js';
