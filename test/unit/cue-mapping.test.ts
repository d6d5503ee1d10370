import { PhytoRecord } from '../../shared/api/phyto-schemas';
import { FarmIndex, FarmIndexDoc } from '../../shared/farms/farm-index';
import { buildRecord } from '../../shared/phyto/record-view';
import { cueDocument, mapRecord, registerNumberText } from '../../shared/siex/cue-mapping';
import { cueValidator } from '../helpers/cue-schema';
import { madrid, microthiol } from '../helpers/phyto-fixtures';

function farm(overrides: Partial<FarmIndexDoc['meta']> = {}, dgc: string | null = '4600000007'): FarmIndex {
  return new FarmIndex({
    meta: {
      farmId: 1,
      rea: '46000000001',
      codigoRea: 'ES460000000001',
      year: 2026,
      name: 'Finca',
      province: 'Valencia',
      communityCode: '10',
      communityName: 'Comunitat Valenciana',
      ownerNif: '71234567W',
      dateCreated: '01-01-2026 00:00:00',
      ...overrides,
    },
    crops: [
      { cropId: 1, typecropId: '102', typecropName: 'VIÑA', code: 1001, name: 'TEMPRANILLO' },
      { cropId: 2, typecropId: '101', typecropName: 'OLIVO', code: 2001, name: 'BLANQUETA' },
    ],
    idcps: [
      {
        idcp: 1,
        crop: 0,
        parcelId: 1,
        parcelName: 'La Hoya',
        prov: '46',
        town: '213',
        aggr: '0',
        zone: '0',
        pol: '12',
        parc: '45',
        enc: '1',
        dimension: '2.35',
        ...(dgc ? { dgc } : {}),
      },
      {
        idcp: 4,
        crop: 1,
        parcelId: 3,
        parcelName: 'Los Olivos',
        prov: '46',
        town: '213',
        aggr: '0',
        zone: '0',
        pol: '15',
        parc: '102',
        enc: '3',
        dimension: '4.12',
        dgc: '4600000028',
      },
    ],
  });
}

function record(f: FarmIndex, extra: Record<string, unknown> = {}, idcp = ['1', '4']): PhytoRecord {
  const product = microthiol();
  const at = madrid('20-06-2026 08:30:00');
  return buildRecord(
    123,
    {
      type: 'AgriPhytosanitary',
      dateApplication: '20-06-2026 08:30:00',
      subtype: { type: 'TypePhytosanitary', name: 'MICROTHIOL', code: 'ES-11179' },
      dose: 0.5,
      measure: { type: 'Measure', name: '%', symbol: '%', code: 14 },
      idcp,
      applicator: { user: { type: 'UserMetadata', nif: '12345678Z', ropo: 'ES-46000123' } },
      infection: { type: 'TypeInfection', kind: 'enfermedad', id: '148', name: 'Oídio' },
      tj: [
        { type: 'TypeJustification', id: '1', name: '' },
        { type: 'TypeJustification', id: '2', name: '' },
      ],
      efficacy: { type: 'TypeEfficacy', id: '1', name: 'Buena', detail: '' },
      ...extra,
    },
    product,
    { entries: idcp.map((i) => f.byIdcp.get(Number(i))!), uses: product.uses },
    f,
    false,
    at,
  );
}

describe('CUE mapping (schema 3.11.4)', () => {
  it('maps a multi-crop record to one TratamFito with one DGC per enclosure, each with its crop, valid against the official schema', () => {
    const f = farm();
    const mapped = mapRecord(record(f), 123, f);
    if (!mapped.ok) throw new Error(mapped.missing.join('; '));
    expect(mapped.block).toMatchObject({
      IdAjenaTratamFito: 123,
      FechaInicio: '20/06/2026',
      FechaFin: '20/06/2026',
      HoraTratamiento: '08:30',
      DGCs: [
        { CodigoDGC: 4600000007, CodigoCultivo: 102, Superficie: 2.35 },
        { CodigoDGC: 4600000028, CodigoCultivo: 101, Superficie: 4.12 },
      ],
      ProblematicaFito: { Enfermedades: { TipoEnfermedad: [148] } },
      Justificaciones: [{ JustAct: 1 }, { JustAct: 2 }],
      ProductosFito: [{ TipoProducto: 1, NumRegistro: '11179', Dosis: 0.5, Unidad: 14 }],
      IdentificadorAplicador: [
        {
          AplicadorEmpresa: { NumROPO: 'ES-46000123' },
          EquipoAplicador: { AplicacionManual: true, IdEquipoAplicador: 'MANUAL' },
        },
      ],
      Eficacia: 1,
    });
    const doc = cueDocument(f, [mapped.block]);
    const validate = cueValidator();
    expect(validate(doc) ? [] : validate.errors).toEqual([]);
    expect(doc.CUADERNO[0]).toMatchObject({ CAExplotacion: '10', CodigoRea: 'ES460000000001', IdTitular: '71234567W' });
  });

  it('puts each kind of infection in its ProblematicaFito group, and a registered machine by its ROMA number', () => {
    const f = farm();
    const validate = cueValidator();
    for (const [kind, group, list] of [
      ['plaga', 'ArtropodosGasteropodos', 'TipoPlaga'],
      ['mala_hierba', 'MalasHierbas', 'TipoMalaHierba'],
      ['regulador', 'ReguladoresOtros', 'TipoRegulador'],
    ] as const) {
      const mapped = mapRecord(
        record(f, {
          infection: { type: 'TypeInfection', kind, id: '7', name: '' },
          machine: [{ type: 'Machine', id: '010102010', name: 'Pulverizador', roma: 'ROMA-46-123' }],
        }),
        123,
        f,
      );
      if (!mapped.ok) throw new Error(mapped.missing.join('; '));
      expect(mapped.block.ProblematicaFito).toEqual({ [group]: { [list]: [7] } });
      expect((mapped.block.IdentificadorAplicador as any)[0].EquipoAplicador).toEqual({
        AplicacionManual: false,
        NumROMA: 'ROMA-46-123',
        TipoMaquinariaUNE: '010102010',
      });
      expect(validate(cueDocument(f, [mapped.block])) ? [] : validate.errors).toEqual([]);
    }
  });

  it('refuses to map a record missing what SIEX requires, naming every missing piece', () => {
    const f = farm({ codigoRea: '', ownerNif: '' }, null);
    const r = record(f, { infection: undefined, tj: [], efficacy: undefined });
    const mapped = mapRecord(r, 123, f);
    expect(mapped.ok).toBe(false);
    if (mapped.ok) return;
    expect(mapped.missing).toEqual([
      expect.stringMatching(/REA code/),
      expect.stringMatching(/holder NIF/),
      expect.stringMatching(/^infection/),
      expect.stringMatching(/^tj/),
      expect.stringMatching(/^efficacy/),
      expect.stringMatching(/idcp 1 has no DGC/),
    ]);
  });

  it('writes register numbers as the register does: legacy numbers (five digits from 10000) plain, ES- numbers whole', () => {
    expect(registerNumberText('ES-11179')).toBe('11179');
    expect(registerNumberText('ES-25999')).toBe('25999');
    expect(registerNumberText('ES-00064')).toBe('ES-00064');
    expect(registerNumberText('ES-02112')).toBe('ES-02112');
    expect(registerNumberText('ES-01234')).toBe('ES-01234');
  });

  it('keeps documents valid whatever the free text: line breaks become spaces, repeated justifications are sent once', () => {
    const f = farm();
    const mapped = mapRecord(
      record(f, {
        detail: 'línea 1\r\nlínea 2\ttab',
        tj: [{ type: 'TypeJustification', id: '1', name: '' }],
        machine: [{ type: 'Machine', id: '010102010', name: '', roma: 'ROMA\n46' }],
      }),
      123,
      f,
    );
    if (!mapped.ok) throw new Error(mapped.missing.join('; '));
    const r = record(f);
    (r.tj as unknown[]).push({ type: 'TypeJustification', id: '1', name: '' });
    const twice = mapRecord(r, 124, f);
    if (!twice.ok) throw new Error(twice.missing.join('; '));
    expect(mapped.block.Observaciones).toBe('línea 1 línea 2 tab');
    expect(twice.block.Justificaciones).toEqual([{ JustAct: 1 }, { JustAct: 2 }]);
    const validate = cueValidator();
    expect(validate(cueDocument(f, [mapped.block, twice.block])) ? [] : validate.errors).toEqual([]);
  });

  it('reports the treated area, when given, spread over the enclosures by size; else each whole enclosure', () => {
    const f = farm();
    const mapped = mapRecord(record(f, { surface: '3.2335' }), 123, f);
    if (!mapped.ok) throw new Error(mapped.missing.join('; '));
    // 2.35 ha and 4.12 ha enclosures (6.47 ha), half of it treated.
    expect((mapped.block.DGCs as { Superficie: number }[]).map((d) => d.Superficie)).toEqual([1.1745, 2.059]);
  });
});
