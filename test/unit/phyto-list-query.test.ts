import { listQuerySchema } from '../../shared/phyto/wire-record';
import { MAX_PAGE_SIZE } from '../../shared/domain/pagination';
import { DomainError } from '../../shared/domain/errors';
import { statusOf } from '../../shared/http/error-status';
import { zodViolations } from '../../shared/domain/validation';
import { checkListQuery } from '../../shared/records/list-records';
import {
  appliedAtOf,
  guardRowKey,
  holdingPartition,
  recordRange,
  recordRowKey,
} from '../../shared/records/record-keys';
import { madrid } from '../helpers/phyto-fixtures';

/** The list's query rules (pagination pair with the spec's message, dates) and the row-key order the list relies on. */
const PAIR = 'page and page_size must be provided together';

/** The query as the list endpoint checks it: the contract's schema (values), then the rules it cannot express. */
function checkQuery(raw: Record<string, string>) {
  const parsed = listQuerySchema.safeParse({ agrifarmId: 'urn:ngsi-ld:AgriFarm:1', ...raw }, { reportInput: true });
  if (!parsed.success) throw new DomainError('The request is not valid.', zodViolations('query', parsed.error));
  return checkListQuery(raw, parsed.data);
}

function problemOf(raw: Record<string, string>): DomainError {
  try {
    checkQuery(raw);
  } catch (e) {
    if (e instanceof DomainError) return e;
    throw e;
  }
  throw new Error(`expected ${JSON.stringify(raw)} to be refused`);
}

describe('list query', () => {
  it.each([
    [{ page: '1' }, 'query.page_size'],
    [{ page_size: '10' }, 'query.page'],
    [{ page: '1', 'page-size': '10' }, 'query.page-size'],
    [{ 'page-size': '10' }, 'query.page-size'],
    [{ page: '2', pagesize: '10' }, 'query.pagesize'],
    [{ page: '1', page_size: '10', 'Page-Size': '10' }, 'query.Page-Size'],
  ])("%p is a 400 with the spec's exact message", (raw, path) => {
    const e = problemOf(raw);
    expect(statusOf(e.violations)).toBe(400);
    expect(e.detail).toBe(PAIR);
    expect(e.violations).toEqual([{ code: 'PAGINATION_PAIR', path, message: PAIR }]);
  });

  it('accepts both or neither, and turns the dates into an inclusive range of whole Madrid days', () => {
    expect(checkQuery({})).toEqual({ fromMs: undefined, toMs: undefined, page: undefined });
    const q = { page: '3', page_size: String(MAX_PAGE_SIZE), dateFrom: '29-03-2026', dateTo: '29-03-2026' };
    expect(checkQuery(q)).toEqual({
      page: { number: 3, size: MAX_PAGE_SIZE },
      fromMs: madrid('29-03-2026 00:00:00').toMillis(),
      toMs: madrid('29-03-2026 23:59:59').toMillis() + 999,
    });
    // the day summer time starts has 23 hours
    expect(
      (madrid('29-03-2026 23:59:59').toMillis() + 1000 - madrid('29-03-2026 00:00:00').toMillis()) / 3_600_000,
    ).toBe(23);
  });

  it.each([
    [{ page: '0', page_size: '10' }, ['INVALID_VALUE'], 'query.page'],
    [{ page: '1', page_size: String(MAX_PAGE_SIZE + 1) }, ['INVALID_VALUE'], 'query.page_size'],
    [{ page: 'one', page_size: '-1' }, ['INVALID_VALUE', 'INVALID_VALUE'], 'query.page'],
    [{ dateFrom: '2026-03-01' }, ['INVALID_DATE'], 'query.dateFrom'],
    [{ dateTo: '31-02-2026' }, ['INVALID_DATE'], 'query.dateTo'],
    [{ dateFrom: '02-03-2026', dateTo: '01-03-2026' }, ['INVALID_VALUE'], 'query.dateFrom'],
    [{ page: '1', dateTo: 'x' }, ['PAGINATION_PAIR', 'INVALID_DATE'], 'query.page_size'],
  ])('%p is a 400 listing %p', (raw, codes, firstPath) => {
    const e = problemOf(raw);
    expect(statusOf(e.violations)).toBe(400);
    expect(e.violations.map((v) => v.code)).toEqual(codes);
    expect(e.violations[0].path).toBe(firstPath);
    if (codes.length > 1 || codes[0] !== 'PAGINATION_PAIR') expect(e.detail).not.toBe(PAIR);
  });
});

describe('phyto row keys', () => {
  const t = (s: string) => madrid(s).toMillis();
  const FARM = 12;

  it('sort newest application first, and at the same instant the larger id first', () => {
    const keys = [
      recordRowKey(FARM, t('01-03-2026 10:00:00'), 5),
      recordRowKey(FARM, t('02-03-2026 10:00:00'), 1),
      recordRowKey(FARM, t('02-03-2026 10:00:00'), 9),
      recordRowKey(FARM, t('01-03-2026 09:59:59'), 7),
    ];
    expect([...keys].sort()).toEqual([keys[2], keys[1], keys[0], keys[3]]);
    expect(keys.map(appliedAtOf)).toEqual([
      t('01-03-2026 10:00:00'),
      t('02-03-2026 10:00:00'),
      t('02-03-2026 10:00:00'),
      t('01-03-2026 09:59:59'),
    ]);
  });

  it('a date range includes records of its farm campaign exactly at its first and last instants, and no other', () => {
    const from = t('01-03-2026 00:00:00');
    const to = t('01-03-2026 23:59:59') + 999;
    const { ge, lt } = recordRange(FARM, from, to);
    const inside = (ms: number, id: number, farm = FARM) => {
      const k = recordRowKey(farm, ms, id);
      return k >= ge && k < lt;
    };
    expect(inside(from, 1)).toBe(true);
    expect(inside(from, 9_999_999_999)).toBe(true);
    expect(inside(to, 1)).toBe(true);
    expect(inside(from - 1, 1)).toBe(false);
    expect(inside(to + 1, 1)).toBe(false);
    // the holding's other campaigns share the partition, never the range
    expect(inside(from, 1, 11)).toBe(false);
    expect(inside(from, 1, 13)).toBe(false);
    expect(inside(from, 1, 120)).toBe(false);
    const all = recordRange(FARM, undefined, undefined);
    expect(recordRowKey(FARM, 0, 1) >= all.ge && recordRowKey(FARM, 0, 1) < all.lt).toBe(true);
    expect(recordRowKey(FARM, Date.now(), 1) >= all.ge && recordRowKey(FARM, Date.now(), 1) < all.lt).toBe(true);
    for (const other of [1, 11, 13, 120, 1_000_000])
      expect(recordRowKey(other, Date.now(), 1) >= all.ge && recordRowKey(other, Date.now(), 1) < all.lt).toBe(false);
  });

  it('keeps record, guard and other rows apart, in one partition per holding', () => {
    expect(guardRowKey('ES-11179', '46-213-0-0-12-45-1')).toBe('g~ES-11179~46-213-0-0-12-45-1');
    expect(recordRowKey(FARM, 0, 1).startsWith('r~')).toBe(true);
    expect(holdingPartition({ farmId: 12, rea: '46000000001' })).toBe('h~46000000001');
  });
});
