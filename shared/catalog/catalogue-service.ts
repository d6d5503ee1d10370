import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { DateTime } from 'luxon';
import { dateTimeNow } from '../time/date-time';
import { z } from 'zod';
import {
  CATALOGUE_ANSWER_SCHEMAS,
  CropProductsQuery,
  PEST_FILTER_RE,
  SIEX_CATALOGUES,
  SiexCatalogueName,
  SiexCatalogueQuery,
} from '../api/catalog-schemas';
import { VersionedValue } from '../cache/versioned-value';
import { AnswerCache, RenderedAnswer } from './answer-cache';
import { isoDay, formatDate, parseDate, ZONE } from '../domain/dates';
import { DomainError, Violation, violation } from '../domain/errors';
import { isValidPersonalNif, normalizeNif } from '../domain/nif';
import { pageOf, pageRequest, PageRequest, queryError } from '../domain/pagination';
import { PestKind } from '../domain/pest-kind';
import {
  applicatorCardView,
  CatalogueDetails,
  catalogueProductView,
  cropProductView,
  siexEntries,
} from './catalogue-views';
import { productsForCrop } from './crop-products';
import { PestTreated } from './product-uses';
import { ReferenceData } from './reference-data';
import { registerCode } from './register/code';
import { PEST_CATALOGUE } from './siex-codes/siex-codes';

/**
 * The catalogue endpoints' use cases, over the reference data in memory (shared/catalog/reference-data.ts): a warm
 * request makes no storage round trip while the data is fresh, and one point read (the catalogue version) once per
 * REFERENCE_CACHE_SECONDS.
 *
 * Every answer comes with what a client needs to keep it: a validator (the ETag's value) derived from the catalogue
 * version the data was loaded under, the day the answer is for, the request and the code that answers it, so it
 * changes whenever an import changes the data, the day turns, or a deployment changes the code;
 * and how long it may be kept. The answer itself is worked out only when it is sent, not for a 304, and its text is
 * kept by its validator: the same request on the same data is answered from memory (a crop's whole list over the
 * real register is 1.4 MB of JSON).
 */
export interface CatalogueDeps {
  reference: VersionedValue<ReferenceData>;
  /** Answers already rendered, by validator. */
  answers: AnswerCache;
  /** What the record kinds add to the entries of their own catalogues. */
  details: CatalogueDetails;
  /** The clock; the real one unless a test sets it. */
  now?: () => DateTime;
}

/** An answer a client may keep, and revalidate with its validator. */
export interface CatalogueAnswer {
  /** The strong ETag's value, without quotes. */
  tag: string;
  maxAgeSeconds: number;
  body: () => RenderedAnswer;
}

/**
 * How long a client may keep an answer without asking again: the catalogue changes with imports (the official
 * register weekly), and an answer is revalidated cheaply after this (304). An answer for today is kept until
 * Madrid's midnight at most, since it is not tomorrow's.
 */
export const CATALOGUE_MAX_AGE_SECONDS = 300;

export async function cropProducts(
  deps: CatalogueDeps,
  raw: Record<string, string>,
  q: CropProductsQuery,
): Promise<CatalogueAnswer> {
  const { page, violations } = pageRequest(raw, q);
  const when = dayOf(deps, q.date, violations);
  const { value: data, version } = await deps.reference.versioned();
  if (!data.codes.get('PRODUCTOS', q.crop)) {
    violations.push(
      violation('INVALID_VALUE', 'query.crop', `${q.crop} is not a crop of the SIEX catalogue PRODUCTOS`),
    );
  }
  const pest = q.pest === undefined ? undefined : pestOf(data, q.pest, when?.day, violations);
  if (violations.length > 0 || !when) throw queryError(violations);
  const scope = q.scope ?? 'field';
  const tag = tagOf(version, ['products', q.crop, when.iso, q.pest ?? '', q.q ?? '', scope, pageKey(page)]);
  return answer(deps, tag, when, () =>
    listAnswer(productsForCrop(data, { cropId: q.crop, day: when.day, pest, words: q.q, scope }), page, (listed) =>
      cropProductView(data.codes, listed),
    ),
  );
}

export async function catalogueProduct(deps: CatalogueDeps, codeText: string): Promise<CatalogueAnswer> {
  const { value: data, version } = await deps.reference.versioned();
  const code = registerCode(codeText);
  const product = code.ok ? data.products.get(code.code) : undefined;
  if (!product) {
    throw new DomainError('No product of the official register has this code.', [
      violation('PRODUCT_CODE_NOT_FOUND', 'path.code', `${codeText} is not in the official register`),
    ]);
  }
  const today = todayOf(deps);
  return answer(deps, tagOf(version, ['product', product.code, today.iso]), today, () => ({
    json: JSON.stringify(catalogueProductView(data.codes, product, today.day)),
  }));
}

export async function siexCatalogue(
  deps: CatalogueDeps,
  name: string,
  raw: Record<string, string>,
  q: SiexCatalogueQuery,
): Promise<CatalogueAnswer> {
  const { page, violations } = pageRequest(raw, q);
  const served = Object.hasOwn(SIEX_CATALOGUES, name);
  if (!served) {
    violations.unshift(
      violation(
        'SIEX_CATALOGUE_NOT_FOUND',
        'path.name',
        `${name} is not a catalogue the gateway serves: ${Object.keys(SIEX_CATALOGUES).join(', ')}`,
      ),
    );
  }
  const when = dayOf(deps, q.date, violations);
  // The name is in the path, not the query: its answer says so, the query's own violations listed beside it.
  if (!served) throw new DomainError('The gateway serves no SIEX catalogue of that name.', violations);
  if (violations.length > 0 || !when) throw queryError(violations);
  const catalogue = name as SiexCatalogueName;
  const { value: data, version } = await deps.reference.versioned();
  return answer(deps, tagOf(version, ['siex', catalogue, when.iso, pageKey(page)]), when, () =>
    listAnswer(siexEntries(data.codes, catalogue, when.day, deps.details), page, (entry) => entry),
  );
}

/**
 * A card found by its number and its holder's NIF together, never by one of them: a wrong NIF is answered exactly as
 * an unknown card, so the lookup cannot tell who holds a card nor which cards exist.
 */
export async function applicatorCard(deps: CatalogueDeps, ropo: string, nifText: string): Promise<CatalogueAnswer> {
  if (!isValidPersonalNif(nifText)) {
    throw new DomainError('The request is not valid.', [
      violation('NIF_INVALID', 'query.nif', `${nifText} is not a valid NIF/NIE (control letter)`),
    ]);
  }
  const nif = normalizeNif(nifText);
  const { value: data, version } = await deps.reference.versioned();
  const card = data.applicators.get(ropo);
  if (!card || normalizeNif(card.nif) !== nif) {
    throw new DomainError('No registered ROPO card matches both identifiers.', [
      violation('APPLICATOR_NOT_FOUND', 'query', 'no registered card has both that ROPO number and that NIF'),
    ]);
  }
  const today = todayOf(deps);
  return answer(deps, tagOf(version, ['applicator', ropo, nif, today.iso]), today, () => ({
    json: JSON.stringify(applicatorCardView(card, today.day)),
  }));
}

// ---------------------------------------------------------------------------------------------------------------

/** The day an answer is for: the one asked for, or today in Madrid. */
interface AnswerDay {
  day: DateTime;
  iso: string;
  /** Today by default: the answer changes at midnight. */
  isToday: boolean;
}

function todayOf(deps: CatalogueDeps): AnswerDay {
  const day = (deps.now?.() ?? dateTimeNow()).setZone(ZONE).startOf('day');
  return { day, iso: isoDay(formatDate(day)), isToday: true };
}

function dayOf(deps: CatalogueDeps, text: string | undefined, violations: Violation[]): AnswerDay | undefined {
  if (text === undefined) return todayOf(deps);
  const day = parseDate(text);
  if (!day) {
    violations.push(violation('INVALID_DATE', 'query.date', 'expected a real day DD-MM-YYYY'));
    return undefined;
  }
  return { day, iso: isoDay(text), isToday: false };
}

/** The pest filter `kind:code`, a code of its catalogue in force on the day (a registration against it would pass). */
function pestOf(
  data: ReferenceData,
  text: string,
  day: DateTime | undefined,
  violations: Violation[],
): PestTreated | undefined {
  const [, kindText, id] = PEST_FILTER_RE.exec(text)!;
  const kind = kindText as PestKind;
  const catalogue = PEST_CATALOGUE[kind];
  const entry = data.codes.get(catalogue, id!);
  if (!entry || (day && !data.codes.isValid(catalogue, id!, day))) {
    const why = entry ? 'in force on that date' : '';
    violations.push(violation('INVALID_VALUE', 'query.pest', `${id} is not a code of ${catalogue} ${why}`.trim()));
    return undefined;
  }
  return { kind, id: id!, name: entry.name };
}

function pageKey(page: PageRequest | undefined): string {
  return page ? `${page.number}x${page.size}` : 'all';
}

function answer(deps: CatalogueDeps, tag: string, when: AnswerDay, render: () => RenderedAnswer): CatalogueAnswer {
  return { tag, maxAgeSeconds: maxAge(deps, when), body: () => deps.answers.memo(tag, { context: render }) };
}

/** One page of a list (all of it without one), each item rendered as its view. */
function listAnswer<T, V>(items: readonly T[], page: PageRequest | undefined, view: (item: T) => V): RenderedAnswer {
  const { items: shown, total, page: answered } = pageOf(items, page);
  return { json: JSON.stringify(shown.map(view)), total, ...(answered ? { page: answered } : {}) };
}

function maxAge(deps: CatalogueDeps, when: AnswerDay): number {
  if (!when.isToday) return CATALOGUE_MAX_AGE_SECONDS;
  const now = (deps.now?.() ?? dateTimeNow()).setZone(ZONE);
  const toMidnight = Math.ceil(now.plus({ days: 1 }).startOf('day').diff(now, 'seconds').seconds);
  return Math.max(1, Math.min(CATALOGUE_MAX_AGE_SECONDS, toMidnight));
}

/**
 * Changes with the code that works the answers out and with their shape, so a deployment that changes what an answer
 * would say changes its ETag: the running file (the deployed bundle holds the whole app) and the answers' schemas.
 * Computed once per process, on the first catalogue answer.
 */
let code: string | undefined;

function tagOf(version: string, request: string[]): string {
  code ??= digest([
    readFileSync(__filename, 'utf8'),
    JSON.stringify(CATALOGUE_ANSWER_SCHEMAS.map((s) => z.toJSONSchema(s))),
  ]);
  return digest([version, code, ...request]);
}

function digest(parts: string[]): string {
  return createHash('sha256').update(parts.join('\n')).digest('base64url').slice(0, 27);
}
