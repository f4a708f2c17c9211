import { describe, expect, it } from '@jest/globals';
import {
  formatHttpDate,
  formatOffsetTime,
  formatReaderTime,
  formatXmlRpcTime,
  microsToDate,
  toMicros,
} from '../../src/time/index.js';

const instant = new Date('2026-11-21T08:30:00.123Z');
const micros = 1_795_249_800_123_456n; // 2026-11-21T08:30:00.123456Z

describe('output forms of docs/api/conventions.md, Times', () => {
  it('reader: six fraction digits and Z, from a Date or from microseconds', () => {
    expect(formatReaderTime(instant)).toBe('2026-11-21T08:30:00.123000Z');
    expect(formatReaderTime(micros)).toBe('2026-11-21T08:30:00.123456Z');
    expect(formatReaderTime(1_795_249_800_000_001n)).toBe('2026-11-21T08:30:00.000001Z');
    expect(formatReaderTime(micros)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  });

  it('reader: instants before 1970 keep a positive fraction', () => {
    expect(formatReaderTime(-1n)).toBe('1969-12-31T23:59:59.999999Z');
    expect(formatReaderTime(-1_000_001n)).toBe('1969-12-31T23:59:58.999999Z');
  });

  it('reader: exact at midnight and either side of 2^53 µs, where the arithmetic changes', () => {
    expect(formatReaderTime(86_399_999_999n)).toBe('1970-01-01T23:59:59.999999Z');
    expect(formatReaderTime(86_400_000_000n)).toBe('1970-01-02T00:00:00.000000Z');
    expect(formatReaderTime(-86_400_000_001n)).toBe('1969-12-30T23:59:59.999999Z');
    expect(formatReaderTime(9_007_199_254_740_991n)).toBe('2255-06-05T23:47:34.740991Z');
    expect(formatReaderTime(9_007_199_254_740_993n)).toBe('2255-06-05T23:47:34.740993Z');
  });

  it('offset: no fraction, +00:00', () => {
    expect(formatOffsetTime(instant)).toBe('2026-11-21T08:30:00+00:00');
    expect(formatOffsetTime(micros)).toBe('2026-11-21T08:30:00+00:00');
  });

  it('XML-RPC: basic date, no zone', () => {
    expect(formatXmlRpcTime(instant)).toBe('20261121T08:30:00');
    expect(formatXmlRpcTime(new Date('2001-02-03T04:05:06.999Z'))).toBe('20010203T04:05:06');
  });

  it('HTTP-date', () => {
    expect(formatHttpDate(instant)).toBe('Sat, 21 Nov 2026 08:30:00 GMT');
    expect(formatHttpDate(micros)).toBe('Sat, 21 Nov 2026 08:30:00 GMT');
  });

  it('an invalid Date or a year beyond 9999 throws instead of printing garbage', () => {
    expect(() => formatReaderTime(new Date('nope'))).toThrow(RangeError);
    expect(() => formatOffsetTime(new Date('nope'))).toThrow(RangeError);
    expect(() => formatOffsetTime(new Date(Date.UTC(10000, 0, 1)))).toThrow(RangeError);
  });
});

describe('microsecond conversions', () => {
  it('toMicros and microsToDate agree, truncating toward the past', () => {
    expect(toMicros(instant)).toBe(1_795_249_800_123_000n);
    expect(toMicros(micros)).toBe(micros);
    expect(microsToDate(micros).toISOString()).toBe('2026-11-21T08:30:00.123Z');
    expect(microsToDate(-1n).toISOString()).toBe('1969-12-31T23:59:59.999Z');
  });
});
