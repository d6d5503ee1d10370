import { GatewayRecordBlocks, reconcileNotebook } from '../../shared/register/notebook-reconciliation';
import { SiexEntry } from '../../shared/siex/iuws-register';

/**
 * Issue 38, item 10: what SIEX holds of a farm campaign against what the gateway says it holds, block by block (CUE
 * section and IdAjena together). The sections here are the schema's; no kind is named.
 */
const record = (n: number, section: string, blocks: number[], state: GatewayRecordBlocks['state'] = 'exported') => ({
  record: `urn:ngsi-ld:AgriThing:${n}`,
  section,
  state,
  blocks,
});
const held = (section: string, idAjena: number, notebook?: string): SiexEntry => ({
  section,
  idAjena,
  ...(notebook ? { notebook } : {}),
  block: { IdAjena: idAjena, FechaInicio: '01/05/2026' },
});

describe('reconcileNotebook', () => {
  it('lists the blocks both hold, those only SIEX holds and those SIEX lost, with counts per section', () => {
    const out = reconcileNotebook(
      [record(7, 'TratamFito', [7, 12]), record(9, 'Riego', [9], 'changed'), record(11, 'Riego', [11])],
      [held('TratamFito', 7), held('Riego', 9), held('Riego', 500, '77'), held('Cosecha', 40)],
    );
    expect(out.matched).toEqual([
      { section: 'Riego', idAjena: 9, record: 'urn:ngsi-ld:AgriThing:9' },
      { section: 'TratamFito', idAjena: 7, record: 'urn:ngsi-ld:AgriThing:7' },
    ]);
    expect(out.onlyInSiex).toEqual([held('Cosecha', 40), held('Riego', 500, '77')]);
    expect(out.missingInSiex).toEqual([
      { section: 'Riego', idAjena: 11, record: 'urn:ngsi-ld:AgriThing:11', state: 'exported' },
      { section: 'TratamFito', idAjena: 12, record: 'urn:ngsi-ld:AgriThing:7', state: 'exported' },
    ]);
    expect(out.sections).toEqual([
      { section: 'Cosecha', matched: 0, onlyInSiex: 1, missingInSiex: 0 },
      { section: 'Riego', matched: 1, onlyInSiex: 1, missingInSiex: 1 },
      { section: 'TratamFito', matched: 1, onlyInSiex: 0, missingInSiex: 1 },
    ]);
  });

  it('names a block by its section and IdAjena together: the same id in two sections is two blocks', () => {
    const out = reconcileNotebook([record(5, 'Riego', [5])], [held('Fertilizacion', 5)]);
    expect(out.matched).toEqual([]);
    expect(out.onlyInSiex.map((e) => `${e.section} ${e.idAjena}`)).toEqual(['Fertilizacion 5']);
    expect(out.missingInSiex.map((e) => `${e.section} ${e.idAjena}`)).toEqual(['Riego 5']);
  });

  it('counts a block SIEX lists twice, or a record names twice, once', () => {
    const out = reconcileNotebook([record(3, 'Riego', [3, 3])], [held('Riego', 3), held('Riego', 3, '77')]);
    expect(out.matched).toHaveLength(1);
    expect(out.onlyInSiex).toEqual([]);
    expect(out.sections).toEqual([{ section: 'Riego', matched: 1, onlyInSiex: 0, missingInSiex: 0 }]);
  });

  it('answers empty lists when neither side holds anything', () => {
    expect(reconcileNotebook([], [])).toEqual({ sections: [], matched: [], onlyInSiex: [], missingInSiex: [] });
  });
});
