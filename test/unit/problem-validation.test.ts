import { z } from 'zod';
import { farmLookupQuerySchema, listIdcpBodySchema } from '../../shared/api/farm-schemas';
import { MAX_IDCP_PER_RECORD } from '../../shared/api/record-fields';
import { phytoRequestSchema } from '../../shared/phyto/wire';
import { fertilizeRequestSchema } from '../../shared/fertilization/wire';
import { mineralBody } from '../helpers/fertilization-fixtures';
import {
  clip,
  MAX_FIELD_BYTES,
  MAX_LISTED_ERRORS,
  MAX_PROBLEM_BYTES,
  problemBody,
  problemResponse,
} from '../../shared/http/problem';
import { DomainError, ErrorCode, Violation, violation } from '../../shared/domain/errors';
import { ERROR_CODES } from '../../shared/app/error-codes';
import { statusOf } from '../../shared/http/error-status';
import { formatPath, parseOrThrow, zodViolations } from '../../shared/domain/validation';
import { checkProblemShape } from '../helpers/spec-shapes';
import { phytoRequest } from '../helpers/phyto-fixtures';

const validBody = () => ({
  type: 'IDCP',
  crop: {
    type: 'TypeCropVariety',
    typecrop: { id: '102', type: 'TypeCrop', name: 'VIÑA' },
    code: 1001,
    name: 'TEMPRANILLO',
  },
  regionalAttributes: [
    {
      sigpac: [
        { prov: '46', town: '213', aggr: '0', zone: '0', pol: '12', parc: '45', enc: '1' },
        { prov: '046', town: '213', aggr: '0', zone: '0', pol: '12', parc: '45', enc: '2' },
      ],
    },
  ],
});

function violationsOf(schema: z.ZodType, input: unknown, root = 'body') {
  const r = schema.safeParse(input, { reportInput: true });
  if (r.success) throw new Error('expected the input to be rejected');
  return zodViolations(root, r.error).map(({ code, path }) => ({ code, path }));
}

describe('formatPath', () => {
  it('writes object keys with dots and array indexes in brackets', () => {
    expect(formatPath('body', ['regionalAttributes', 0, 'sigpac', 1, 'prov'])).toBe(
      'body.regionalAttributes[0].sigpac[1].prov',
    );
    expect(formatPath('$', ['clients', 3])).toBe('$.clients[3]');
    expect(formatPath('', ['a', 0, 'b'])).toBe('a[0].b');
    expect(formatPath('query', [])).toBe('query');
  });
});

describe('zodViolations', () => {
  it('accepts the spec request body (sanity check for the cases below)', () => {
    expect(listIdcpBodySchema.safeParse(validBody()).success).toBe(true);
  });

  it('reports a missing field as REQUIRED, with its full path', () => {
    const body = validBody() as Record<string, any>;
    delete body.regionalAttributes[0].sigpac[1].prov;
    delete body.crop.typecrop.name;
    expect(violationsOf(listIdcpBodySchema, body)).toEqual([
      { code: 'REQUIRED', path: 'body.crop.typecrop.name' },
      { code: 'REQUIRED', path: 'body.regionalAttributes[0].sigpac[1].prov' },
    ]);
  });

  it('reports a missing constant field (a literal such as type: "IDCP") as REQUIRED, not INVALID_VALUE', () => {
    const body = validBody() as Record<string, any>;
    delete body.type;
    delete body.crop.typecrop.type;
    expect(violationsOf(listIdcpBodySchema, body)).toEqual([
      { code: 'REQUIRED', path: 'body.type' },
      { code: 'REQUIRED', path: 'body.crop.typecrop.type' },
    ]);
  });

  it('reports a value of the wrong type or form as INVALID_VALUE', () => {
    const body = validBody() as Record<string, any>;
    body.type = 'IDCPX';
    body.crop.code = '1001';
    body.regionalAttributes[0].sigpac[1].prov = 46;
    body.regionalAttributes[0].sigpac[0].enc = '1a';
    expect(violationsOf(listIdcpBodySchema, body)).toEqual([
      { code: 'INVALID_VALUE', path: 'body.type' },
      { code: 'INVALID_VALUE', path: 'body.crop.code' },
      { code: 'INVALID_VALUE', path: 'body.regionalAttributes[0].sigpac[0].enc' },
      { code: 'INVALID_VALUE', path: 'body.regionalAttributes[0].sigpac[1].prov' },
    ]);
  });

  it('refuses a decimal comma, saying to write a point, in every kind (issue 38 item 9)', () => {
    const said = 'a non-negative decimal number with a point, e.g. 2.5 or "2.5" (not "2,5": no comma)';
    const phyto = phytoRequestSchema.safeParse(
      { ...phytoRequest(), dose: '0,6', surface: '2,5' },
      { reportInput: true },
    );
    expect(phyto.success ? [] : zodViolations('body', phyto.error)).toEqual([
      { code: 'INVALID_VALUE', path: 'body.dose', message: said },
      { code: 'INVALID_VALUE', path: 'body.surface', message: said },
    ]);
    const ferti = fertilizeRequestSchema.safeParse({ ...mineralBody(), surface: '0,8' }, { reportInput: true });
    expect(ferti.success ? [] : zodViolations('body', ferti.error)).toEqual([
      { code: 'INVALID_VALUE', path: 'body.surface', message: said },
    ]);
    expect(phytoRequestSchema.safeParse({ ...phytoRequest(), dose: '0.6', surface: '2.5' }).success).toBe(true);
  });

  it('takes an idcp as the farm lookup writes it, a number, as well as text, in every kind (issue 38 item 9)', () => {
    const phyto = phytoRequestSchema.parse({ ...phytoRequest(), idcp: [4, '7'] });
    expect(phyto.idcp).toEqual(['4', '7']);
    expect(fertilizeRequestSchema.parse({ ...mineralBody(), idcp: [12] }).idcp).toEqual(['12']);
    // The same location twice, once as a number and once as text, is twice.
    const twice = phytoRequestSchema.safeParse({ ...phytoRequest(), idcp: [4, '4'] }, { reportInput: true });
    expect(twice.success ? [] : zodViolations('body', twice.error)).toEqual([
      { code: 'INVALID_VALUE', path: 'body.idcp', message: 'an idcp appears twice' },
    ]);
    // Neither 0, a fraction nor an 11-digit number is an idcp; text keeps its own message.
    const wrong = phytoRequestSchema.safeParse(
      { ...phytoRequest(), idcp: [0, 1.5, 10_000_000_000, '04'] },
      { reportInput: true },
    );
    expect(wrong.success ? [] : zodViolations('body', wrong.error).map((v) => v.path)).toEqual([
      'body.idcp[0]',
      'body.idcp[1]',
      'body.idcp[2]',
      'body.idcp[3]',
    ]);
    expect(wrong.success ? '' : zodViolations('body', wrong.error)[3]?.message).toBe(
      'idcp from the identifier operation',
    );
  });

  it('reports every unknown field as UNKNOWN_FIELD at its own path', () => {
    const body = validBody() as Record<string, any>;
    body.extra = true;
    body.crop.colour = 'red';
    body.regionalAttributes[0].sigpac[1].provincia = '46';
    body.regionalAttributes[0].sigpac[1].dimension = '1.0';
    expect(violationsOf(listIdcpBodySchema, body)).toEqual(
      expect.arrayContaining([
        { code: 'UNKNOWN_FIELD', path: 'body.extra' },
        { code: 'UNKNOWN_FIELD', path: 'body.crop.colour' },
        { code: 'UNKNOWN_FIELD', path: 'body.regionalAttributes[0].sigpac[1].provincia' },
        { code: 'UNKNOWN_FIELD', path: 'body.regionalAttributes[0].sigpac[1].dimension' },
      ]),
    );
    expect(violationsOf(listIdcpBodySchema, body)).toHaveLength(4);
  });

  it('lists every violation of every kind at once', () => {
    const body = validBody() as Record<string, any>;
    delete body.crop.name;
    body.crop.code = -1;
    body.regionalAttributes[0].sigpac[1].x = 1;
    const got = violationsOf(listIdcpBodySchema, body);
    expect(got).toEqual(
      expect.arrayContaining([
        { code: 'REQUIRED', path: 'body.crop.name' },
        { code: 'INVALID_VALUE', path: 'body.crop.code' },
        { code: 'UNKNOWN_FIELD', path: 'body.regionalAttributes[0].sigpac[1].x' },
      ]),
    );
    expect(got).toHaveLength(3);
  });

  it('reports empty enclosure lists and a body that is not an object', () => {
    expect(violationsOf(listIdcpBodySchema, { ...validBody(), regionalAttributes: [] })).toEqual([
      { code: 'INVALID_VALUE', path: 'body.regionalAttributes' },
    ]);
    expect(violationsOf(listIdcpBodySchema, { ...validBody(), regionalAttributes: [{ sigpac: [] }] })).toEqual([
      { code: 'INVALID_VALUE', path: 'body.regionalAttributes[0].sigpac' },
    ]);
    expect(violationsOf(listIdcpBodySchema, [])).toEqual([{ code: 'INVALID_VALUE', path: 'body' }]);
    expect(violationsOf(listIdcpBodySchema, null)).toEqual([{ code: 'INVALID_VALUE', path: 'body' }]);
  });

  it(`takes 1 to ${MAX_IDCP_PER_RECORD} locations in a registration, not one more`, () => {
    const request = (n: number) => phytoRequest({ idcp: Array.from({ length: n }, (_, i) => String(i + 1)) });
    expect(phytoRequestSchema.safeParse(request(MAX_IDCP_PER_RECORD)).success).toBe(true);
    for (const n of [0, MAX_IDCP_PER_RECORD + 1]) {
      expect(violationsOf(phytoRequestSchema, request(n))).toEqual([{ code: 'INVALID_VALUE', path: 'body.idcp' }]);
    }
  });

  it('reports missing and malformed farm lookup parameters under query.*', () => {
    expect(violationsOf(farmLookupQuerySchema, {}, 'query')).toEqual([
      { code: 'REQUIRED', path: 'query.rea' },
      { code: 'REQUIRED', path: 'query.year' },
    ]);
    expect(violationsOf(farmLookupQuerySchema, { rea: '46/0001', year: '26' }, 'query')).toEqual([
      { code: 'INVALID_VALUE', path: 'query.rea' },
      { code: 'INVALID_VALUE', path: 'query.year' },
    ]);
    expect(violationsOf(farmLookupQuerySchema, { rea: '46000000001', year: '2026.0' }, 'query')).toEqual([
      { code: 'INVALID_VALUE', path: 'query.year' },
    ]);
    expect(farmLookupQuerySchema.parse({ rea: '46000000001', year: '2026' })).toEqual({
      rea: '46000000001',
      year: 2026,
    });
  });

  it('parseOrThrow returns the data or throws a 400 DomainError carrying every violation', () => {
    expect(parseOrThrow(farmLookupQuerySchema, 'query', { rea: 'A1', year: '2026' }, 'bad')).toEqual({
      rea: 'A1',
      year: 2026,
    });
    let thrown: unknown;
    try {
      parseOrThrow(farmLookupQuerySchema, 'query', { year: 'x' }, 'The query is not valid.');
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(DomainError);
    expect(statusOf((thrown as DomainError).violations)).toBe(400);
    expect((thrown as DomainError).detail).toBe('The query is not valid.');
    expect((thrown as DomainError).violations.map((v) => v.path)).toEqual(['query.rea', 'query.year']);
  });
});

describe('problem details', () => {
  it('problemBody has the RFC 9457 fields and the violations', () => {
    const body = problemBody(404, 'agrifarmId not found or not accessible', [
      violation('AGRIFARM_NOT_FOUND', 'query.agrifarmId', 'agrifarmId not found or not accessible'),
    ]);
    checkProblemShape(body, 404);
    expect(body).toEqual({
      type: 'https://siex-gateway.dev/problems/404',
      title: 'Not Found',
      status: 404,
      detail: 'agrifarmId not found or not accessible',
      errors: [
        { code: 'AGRIFARM_NOT_FOUND', path: 'query.agrifarmId', message: 'agrifarmId not found or not accessible' },
      ],
    });
  });

  it('problemResponse is application/problem+json with the error headers (Retry-After) and the status', () => {
    const res = problemResponse(
      new DomainError('slow down', [violation('RATE_LIMITED', '', 'retry after 7 seconds')], 7),
    );
    expect(res.status).toBe(429);
    expect(res.headers).toEqual({ 'Content-Type': 'application/problem+json', 'Retry-After': '7' });
    const body = JSON.parse(res.body as string);
    checkProblemShape(body, 429);
    expect(body.title).toBe('Too Many Requests');
  });

  it('titles every status the gateway answers', () => {
    for (const status of [400, 401, 404, 413, 415, 422, 429, 500, 502, 503])
      expect(problemBody(status, 'x', []).title).not.toBe('Error');
  });

  it(`lists the first ${MAX_LISTED_ERRORS} violations and says how many there were`, () => {
    const many = Array.from({ length: 121_838 }, (_, i) =>
      violation('UNKNOWN_FIELD', `body.k${i}`, 'field not accepted here'),
    );
    const body = problemBody(400, 'The request is not valid.', many);
    expect(body.errors).toHaveLength(MAX_LISTED_ERRORS);
    expect(body.errors.at(-1)!.path).toBe(`body.k${MAX_LISTED_ERRORS - 1}`);
    expect(body.errorCount).toBe(121_838);
    // Not truncated: no count, the shape as before.
    expect(problemBody(400, 'x', many.slice(0, MAX_LISTED_ERRORS))).not.toHaveProperty('errorCount');
  });

  it('cuts long paths and messages to their byte budget, counting JSON escapes, and keeps whole characters', () => {
    expect(clip('short')).toBe('short');
    const long = clip(`body.${'a'.repeat(10_000)}`);
    expect(long.endsWith('…')).toBe(true);
    expect(Buffer.byteLength(JSON.stringify(long)) - 2).toBeLessThanOrEqual(MAX_FIELD_BYTES);
    expect(Buffer.byteLength(JSON.stringify(long)) - 2).toBeGreaterThan(MAX_FIELD_BYTES - 4);
    // Control characters take six bytes once escaped; astral characters are never split into lone surrogates.
    const escaped = clip('\u0001'.repeat(1000));
    expect(JSON.stringify(escaped).length - 2).toBeLessThanOrEqual(MAX_FIELD_BYTES);
    const astral = clip('🌿'.repeat(1000));
    expect(astral.slice(0, -1)).toMatch(/^(🌿)+$/u);
  });

  it(`is never larger than MAX_PROBLEM_BYTES (${MAX_PROBLEM_BYTES} bytes), whatever the violations say`, () => {
    const longest = (Object.keys(ERROR_CODES) as ErrorCode[]).reduce((a, b) => (b.length > a.length ? b : a));
    const nasty = ['\u0001', '\ud800', '"', 'ñ', '🌿'];
    for (const ch of nasty) {
      const violations = Array.from(
        { length: 5000 },
        () => ({ code: longest, path: `body.${ch.repeat(5000)}`, message: ch.repeat(5000) }) satisfies Violation,
      );
      const text = JSON.stringify(problemBody(415, ch.repeat(5000), violations));
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MAX_PROBLEM_BYTES);
    }
  });
});
