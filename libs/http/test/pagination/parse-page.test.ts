import { describe, expect, it } from '@jest/globals';
import { AppError } from '@murmur/core';
import { parsePage } from '../../src/pagination/index.js';
import { parseUrlEncoded } from '../../src/params.js';

const limits = { defaultPerPage: 100, maxPerPage: 1000 };

function rejection(input: Record<string, unknown>): AppError {
  try {
    parsePage(input, limits);
  } catch (err) {
    return err as AppError;
  }
  throw new Error('expected parsePage to throw');
}

describe('parsePage', () => {
  it('defaults to page 1 of the default size', () => {
    expect(parsePage({}, limits)).toEqual({ page: 1, perPage: 100, offset: 0 });
  });

  it('reads query strings and JSON numbers', () => {
    expect(parsePage({ page: '3', per_page: '75' }, limits)).toEqual({ page: 3, perPage: 75, offset: 150 });
    expect(parsePage({ page: 2, per_page: 125 }, limits)).toEqual({ page: 2, perPage: 125, offset: 125 });
    expect(parsePage({ page: '007' }, limits).page).toBe(7);
  });

  it('clamps per_page to the maximum', () => {
    expect(parsePage({ per_page: '5000' }, limits).perPage).toBe(1000);
    expect(parsePage({ page: '2', per_page: 1001 }, limits)).toEqual({
      page: 2,
      perPage: 1000,
      offset: 1000,
    });
  });

  it('takes the last value of a parameter repeated in a query or form, refuses a JSON array', () => {
    expect(parsePage(parseUrlEncoded('page=1&page=4'), limits).page).toBe(4);
    expect(() => parsePage({ page: ['1', '4'] }, limits)).toThrow('Must be a positive integer');
  });

  it.each([
    [{ per_page: '0' }, 'per_page'],
    [{ per_page: 'x' }, 'per_page'],
    [{ per_page: '-5' }, 'per_page'],
    [{ per_page: '1.5' }, 'per_page'],
    [{ per_page: 2.5 }, 'per_page'],
    [{ per_page: '1e3' }, 'per_page'],
    [{ per_page: ' 10' }, 'per_page'],
    [{ per_page: '' }, 'per_page'],
    [{ per_page: true }, 'per_page'],
    [{ page: '0' }, 'page'],
    [{ page: '+2' }, 'page'],
    [{ page: '0x10' }, 'page'],
    [{ page: '99999999999999999999' }, 'page'],
    [{ page: { n: 1 } }, 'page'],
    [{ page: '-0' }, 'page'],
  ])('%j → 400 naming %s', (input, param) => {
    const err = rejection(input);
    expect(err).toBeInstanceOf(AppError);
    expect(err.status).toBe(400);
    expect(err.param).toBe(param);
    expect(err.message).toBe('Must be a positive integer');
  });
});
