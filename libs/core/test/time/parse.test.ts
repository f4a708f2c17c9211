import { describe, expect, it } from '@jest/globals';
import { formatReaderTime, parseTimestamp } from '../../src/time/index.js';

const micros = (text: string) => parseTimestamp(text)?.micros;
const iso = (text: string) => {
  const parsed = parseTimestamp(text);
  return parsed === null ? null : new Date(parsed.ms).toISOString();
};

describe('parseTimestamp accepts the forms of docs/api/conventions.md, Times', () => {
  it.each([
    ['2026-11-21', '2026-11-21T00:00:00.000Z'],
    ['2026-11-21T08:30', '2026-11-21T08:30:00.000Z'],
    ['2026-11-21T08:30Z', '2026-11-21T08:30:00.000Z'],
    ['2026-11-21T08:30:15', '2026-11-21T08:30:15.000Z'],
    ['2026-11-21T08:30:15Z', '2026-11-21T08:30:15.000Z'],
    ['2026-11-21T08:30:15.5Z', '2026-11-21T08:30:15.500Z'],
    ['2026-11-21T08:30:15+02:00', '2026-11-21T06:30:15.000Z'],
    ['2026-11-21T08:30:15+0200', '2026-11-21T06:30:15.000Z'],
    ['2026-11-21T01:30:15-05:30', '2026-11-21T07:00:15.000Z'],
    ['2026-11-21T23:30:00-01:00', '2026-11-22T00:30:00.000Z'],
    ['2026-11-21T08:30:15-00:00', '2026-11-21T08:30:15.000Z'],
    ['20261121T08:30:15', '2026-11-21T08:30:15.000Z'],
    ['20261121T083015', '2026-11-21T08:30:15.000Z'],
    ['20261121T083015Z', '2026-11-21T08:30:15.000Z'],
    ['20261121T08:30:15+01:00', '2026-11-21T07:30:15.000Z'],
    ['2024-02-29', '2024-02-29T00:00:00.000Z'],
    ['2000-02-29', '2000-02-29T00:00:00.000Z'],
    ['0099-01-01', '0099-01-01T00:00:00.000Z'],
  ])('%s', (text, expected) => {
    expect(iso(text)).toBe(expected);
  });

  it('no zone means UTC and a date alone means midnight UTC', () => {
    expect(micros('2026-11-21')).toBe(micros('2026-11-21T00:00:00Z'));
    expect(micros('2026-11-21T08:30:00')).toBe(micros('2026-11-21T08:30:00+00:00'));
  });

  it('fractions of any length are truncated to microseconds, never rounded', () => {
    expect(micros('2026-11-21T08:30:00.1234569Z')).toBe(1_795_249_800_123_456n);
    expect(micros('2026-11-21T08:30:00.999999999Z')).toBe(1_795_249_800_999_999n);
    expect(micros('2026-11-21T08:30:00.000001Z')).toBe(1_795_249_800_000_001n);
    expect(parseTimestamp('2026-11-21T08:30:00.123999Z')?.ms).toBe(1_795_249_800_123);
  });

  it('a reader timestamp parsed back gives the same microseconds', () => {
    for (const value of [1_795_249_800_123_456n, 1_795_249_800_000_000n, 1n, 0n]) {
      expect(parseTimestamp(formatReaderTime(value))?.micros).toBe(value);
    }
  });

  it('before 1970, ms stays the floor of micros', () => {
    expect(parseTimestamp('1969-12-31T23:59:59.9995Z')).toEqual({ ms: -1, micros: -500n });
  });
});

describe('parseTimestamp rejects everything else', () => {
  it.each([
    '',
    'yesterday',
    '2026-11-21 08:30:00',
    '2026-11-21t08:30:00z',
    '2026-11-21T08',
    '2026-11-21T8:30',
    '2026-11-21T08:30:00.Z',
    '2026-11-21T08:30:00,5Z',
    '2026-11-21T08:30.5Z',
    '2026-11-21Z',
    '2026-11-21T08:30:00+02',
    '2026-11-21T08:30:00 +02:00',
    '2026-11-21T08:30:00+24:00',
    '2026-11-21T08:30:00+02:60',
    '2026-11-21T08:30:00UTC',
    '2026-02-30',
    '2026-02-29',
    '1900-02-29',
    '2026-04-31',
    '2026-13-01',
    '2026-00-10',
    '2026-11-00',
    '2026-11-21T24:00:00Z',
    '2026-11-21T23:60:00Z',
    '2026-11-21T23:59:60Z',
    '20261121',
    '20261121T0830',
    '20261121T08:3015',
    '2026-1121T08:30:15',
    '+2026-11-21',
    '26-11-21',
    ' 2026-11-21',
    '2026-11-21\n',
    'Sat, 21 Nov 2026 08:30:00 GMT',
    '1795249800',
  ])('%j', (text) => {
    expect(parseTimestamp(text)).toBeNull();
  });
});
