import { z } from 'zod';
import { fertilizeRequestSchema } from '../../shared/fertilization/wire';
import { ExportKind, ExportKinds } from '../../shared/export/export-kinds';
import { JobItem, jobBatchSchema, jobItemSchema } from '../../shared/export/job';
import { resultOf } from '../../shared/http/job-answers';
import { outcomeMail } from '../../shared/export/outcome-email';
import { settledRecords } from '../../shared/export/job-outcome';
import { parseRefText, refText, storedRefSchema } from '../../shared/export/record-ref';
import { fertilizationKind } from '../../shared/fertilization/fertilization-kind';
import { fertilizationOf } from '../../shared/fertilization/wire-mapper';
import { fertilizationView } from '../../shared/fertilization/record-view';
import { idAjenaOf, recordBlocks } from '../../shared/records/cue-blocks';
import { treatmentCue } from '../../shared/phyto/cue-block';
import { fertilizationFarm, mineralBody } from '../helpers/fertilization-fixtures';
import { madrid } from '../helpers/phyto-fixtures';

/** Issue 25, item 4: the pure parts of the export over record kinds. */
const FERTILIZACION_BLOCKS = fertilizationKind.cue;

/** The kind jobs held before they held several: their rows name its records by id alone. */
const LEGACY = 'AgriPhytosanitary';
const kindOf = (urnType: string, cue: ExportKind['cue']) => ({ urnType, label: urnType, cue }) as ExportKind;
const kinds = new ExportKinds([
  kindOf('AgriPhytosanitary', treatmentCue),
  kindOf('AgriFertilize', FERTILIZACION_BLOCKS),
]);

describe('a job record as stored', () => {
  it('a treatment is a bare number, as every batch row written before kinds; another kind is Type:id', () => {
    const refs = z.array(storedRefSchema(LEGACY));
    expect(z.decode(refs, [12, 'AgriFertilize:12'])).toEqual([
      { type: 'AgriPhytosanitary', id: 12 },
      { type: 'AgriFertilize', id: 12 },
    ]);
    expect(
      z.encode(refs, [
        { type: 'AgriPhytosanitary', id: 12 },
        { type: 'AgriFertilize', id: 12 },
      ]),
    ).toEqual([12, 'AgriFertilize:12']);
    expect(() => z.decode(refs, ['AgriFertilize:x'])).toThrow();
  });

  it('an item row and a batch row written before kinds read as treatments', () => {
    const old = { recordId: 5, recordRowKey: 'k', siexBlocks: [], state: 'ok', code: '', message: '' };
    expect(jobItemSchema(LEGACY).parse(old).type).toBe('AgriPhytosanitary');
    const batch = { n: 0, key: 'job-1-batch-0', requestId: '', state: 'done', records: [5, 6] };
    expect(jobBatchSchema(LEGACY).parse(batch).records).toEqual([
      { type: 'AgriPhytosanitary', id: 5 },
      { type: 'AgriPhytosanitary', id: 6 },
    ]);
  });

  it('operators name a treatment by its id and another kind by its URN', () => {
    expect(parseRefText('12', LEGACY)).toEqual({ type: 'AgriPhytosanitary', id: 12 });
    expect(parseRefText('urn:ngsi-ld:AgriFertilize:12', LEGACY)).toEqual({ type: 'AgriFertilize', id: 12 });
    expect([parseRefText('12x', LEGACY), parseRefText('urn:ngsi-ld:AgriFertilize:0', LEGACY)]).toEqual([null, null]);
    expect(refText({ type: 'AgriFertilize', id: 12 }, LEGACY)).toBe('urn:ngsi-ld:AgriFertilize:12');
    expect(refText({ type: 'AgriPhytosanitary', id: 12 }, LEGACY)).toBe('12');
  });
});

describe('the registry of kinds', () => {
  it('reads a URN of a kind it has, and nothing else', () => {
    expect(kinds.parse('urn:ngsi-ld:AgriFertilize:7')).toEqual({ type: 'AgriFertilize', id: 7 });
    expect(kinds.parse('urn:ngsi-ld:AgriPhytosanitary:7')).toEqual({ type: 'AgriPhytosanitary', id: 7 });
    expect(kinds.parse('urn:ngsi-ld:AgriFarm:7')).toBeNull();
    expect(kinds.parse('urn:ngsi-ld:AgriFertilize:12345678901')).toBeNull();
    expect(kinds.expected()).toBe('urn:ngsi-ld:AgriPhytosanitary:<n> or urn:ngsi-ld:AgriFertilize:<n>');
    expect(() => kinds.of('AgriHarvest')).toThrow('no record kind has URN type AgriHarvest');
  });
});

describe('a fertilization in a job', () => {
  const farm = fertilizationFarm();
  const record = fertilizationView({
    id: 40,
    fertilization: fertilizationOf(fertilizeRequestSchema.parse(mineralBody({ idcp: ['102', '103'] }))),
    nitrogenKgPerHa: 81,
    exported: false,
    now: madrid('14-05-2026 18:00:00'),
  });
  const keys = FERTILIZACION_BLOCKS.map(record, farm);
  if (!keys.ok) throw new Error(keys.missing.join('; '));
  const blockIds = Object.fromEntries(keys.blocks.map((b, k) => [b.key, 40 + k]));

  it('is sent under the IdAjenaFerti it keeps, and Borrar for a block SIEX holds that the record no longer has', () => {
    const sent = recordBlocks(FERTILIZACION_BLOCKS, { record, recordId: 40, blockIds, held: [40, 99] }, farm, false);
    if (!sent.ok) throw new Error(sent.missing.join('; '));
    expect(sent.blocks.map((b) => [idAjenaOf(FERTILIZACION_BLOCKS, b), b.Borrar ?? false])).toEqual([
      ...keys.blocks.map((_, k) => [40 + k, false]),
      [99, true],
    ]);
    expect(sent.blocks.every((b) => !('IdAjenaTratamFito' in b))).toBe(true);
  });

  it('a deletion sends Borrar under exactly the ids SIEX holds', () => {
    const sent = recordBlocks(FERTILIZACION_BLOCKS, { record, recordId: 40, blockIds, held: [40] }, farm, true);
    if (!sent.ok) throw new Error(sent.missing.join('; '));
    expect(sent.blocks.map((b) => [b.IdAjenaFerti, b.Borrar])).toEqual([[40, true]]);
  });
});

describe('the result and the e-mail of a job of both kinds', () => {
  const item = (type: string, recordId: number, o: Partial<JobItem> = {}): [string, JobItem] => [
    `${type}:${recordId}`,
    { type, recordId, recordRowKey: 'k', siexBlocks: [], state: 'ok', code: '', message: '', ...o },
  ];
  const job = {
    items: new Map([
      item('AgriFertilize', 12),
      item('AgriPhytosanitary', 12),
      item('AgriPhytosanitary', 3, { state: 'error', code: 'SIM_RECHAZADO', message: 'refused' }),
      item('AgriFertilize', 2, { state: 'pending' }),
    ]),
  };

  it('lists every record by id, a treatment before the fertilization of the same id, the others naming their type', () => {
    expect(resultOf(job)).toEqual({
      data: [
        { result: 'ok', id: 12, urn: 'urn:ngsi-ld:AgriPhytosanitary:12' },
        { result: 'ok', id: 12, type: 'AgriFertilize', urn: 'urn:ngsi-ld:AgriFertilize:12' },
      ],
      error: [
        {
          result: 'error',
          id: 2,
          type: 'AgriFertilize',
          urn: 'urn:ngsi-ld:AgriFertilize:2',
          code: 'NOT_PROCESSED',
          message: expect.any(String),
        },
        { result: 'error', id: 3, urn: 'urn:ngsi-ld:AgriPhytosanitary:3', code: 'SIM_RECHAZADO', message: 'refused' },
      ],
    });
  });

  it('the e-mail names each record by its URN and counts each kind', () => {
    const meta = { jobId: 9, kind: 'export', agrifarmId: 'urn:ngsi-ld:AgriFarm:7', status: 'FinalizadoConErrores' };
    const mail = outcomeMail(
      { ...meta, total: 4, error: null } as never,
      settledRecords(job.items.values()),
      kinds.all().map((k) => k.urnType),
    );
    expect(mail.text).toContain('Records accepted by SIEX: 2 of 4.');
    expect(mail.text).toContain('By kind: AgriPhytosanitary 1 of 2 accepted, AgriFertilize 1 of 2 accepted.');
    expect(mail.text).toContain('urn:ngsi-ld:AgriFertilize:12: ok');
    expect(mail.text).toContain('urn:ngsi-ld:AgriPhytosanitary:12: ok');
    expect(mail.text).toContain('urn:ngsi-ld:AgriFertilize:2: NOT_PROCESSED');
    expect(mail.html).toContain('<td>urn:ngsi-ld:AgriFertilize:12</td>');
  });
});
