import { fertilizeRequestSchema } from '../../shared/fertilization/wire';
import { FarmIndex } from '../../shared/farms/farm-index';
import { fertilizationOf } from '../../shared/fertilization/wire-mapper';
import { fertilizationAnswer } from '../../shared/fertilization/record-answer';
import { fertilizationView } from '../../shared/fertilization/record-view';
import { fertilizationFarm, mineralBody } from '../helpers/fertilization-fixtures';
import { madrid } from '../helpers/phyto-fixtures';

/** Issue 25: a fertilization answers whether an export would send it now, by the export's own mapping. */
const record = fertilizationView({
  id: 7,
  fertilization: fertilizationOf(fertilizeRequestSchema.parse(mineralBody())),
  nitrogenKgPerHa: 81,
  exported: false,
  now: madrid('14-05-2026 18:00:00'),
});

describe('a fertilization as answered', () => {
  it('is exportable, with no blockers, on a farm SIEX can take; the stored record unchanged beside it', () => {
    expect(fertilizationAnswer(record, fertilizationFarm())).toEqual({
      ...record,
      exportable: true,
      exportBlockers: [],
    });
  });

  it('names what SIEX would miss when an enclosure has no DGC code', () => {
    const farm = fertilizationFarm();
    const withoutDgc = new FarmIndex({
      ...farm.doc,
      idcps: farm.doc.idcps.map((e) => (e.idcp === 102 ? { ...e, dgc: '' } : e)),
    });
    expect(fertilizationAnswer(record, withoutDgc)).toMatchObject({
      exportable: false,
      exportBlockers: [{ code: 'MISSING_DATA', message: 'enclosure of idcp 102 has no DGC code (CodigoDGC)' }],
    });
  });
});
