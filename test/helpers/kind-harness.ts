import type { DateTime } from 'luxon';
import type { ReferenceData } from '../../shared/catalog/reference-data';
import type { FarmIndex } from '../../shared/farms/farm-index';
import type { CueKindMapping, RecordKind } from '../../shared/records/record-kind';
import { descriptorProblems, ENVELOPE_FIELDS } from '../../shared/siex/cue-descriptor';
import { cueDocument } from '../../shared/siex/cue-mapping';
import { cueValidator } from './cue-schema';
import type { RecordView } from '../../shared/records/record-rows';
import { testSiexCodes } from './phyto-fixtures';

type Body = Record<string, unknown>;

/**
 * A record kind driven as the records core drives it, for its unit tests: a body judged on a farm at `now` (with the
 * kind's recording window, or none as for an amendment keeping its date), the violations as `CODE path`, the stored
 * record of a body judged clean, and its CUE blocks.
 */
export function kindHarness<Req, Rec extends RecordView, Res, Answer>(
  kind: RecordKind<Req, Rec, Res, Answer>,
  farm: FarmIndex,
  now: DateTime,
) {
  const reference: ReferenceData = { products: new Map(), applicators: new Map(), codes: testSiexCodes() };
  const judge = (body: Body, keepsDate = false) => {
    const request = kind.toRequest(body);
    const window = keepsDate ? null : kind.recordingWindow({ MAX_BACKDATE_DAYS: 7 });
    return kind.judge({
      request,
      appliedAt: kind.appliedAt(request),
      now,
      window,
      farm,
      history: new Map(),
      own: null,
      reference,
    });
  };
  const codes = (body: Body, keepsDate = false) => judge(body, keepsDate).violations.map((v) => `${v.code} ${v.path}`);
  const recordOf = (body: Body, id = 7): Rec => {
    const { violations, resolution } = judge(body);
    if (violations.length) throw new Error(JSON.stringify(violations));
    return kind.view({ id, request: kind.toRequest(body), resolution, farm, exported: false, now });
  };
  const blocksOf = (body: Body, f: FarmIndex = farm) => {
    const mapped = kind.cue.map(recordOf(body), f);
    if (!mapped.ok) throw new Error(mapped.missing.join('; '));
    return mapped.blocks;
  };
  return { reference, judge, codes, recordOf, blocksOf };
}

/** A document of one block of a kind (and its Borrar twin) on `farm`, checked by ajv and by the kind's descriptor table. */
export function checkKindDocument(farm: FarmIndex, cue: CueKindMapping<never>, body: Record<string, unknown>): void {
  const doc = cueDocument(farm, {
    [cue.section]: [
      { [cue.idAjena]: 7, ...body },
      { [cue.idAjena]: 8, ...body, Borrar: true },
    ],
  });
  const validate = cueValidator();
  expect([validate(doc), validate.errors ?? []]).toEqual([true, []]);
  expect(descriptorProblems({ ...ENVELOPE_FIELDS, ...cue.fields }, doc)).toEqual([]);
}
