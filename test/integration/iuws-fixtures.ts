import { readFileSync } from 'node:fs';
import { cueSections } from '../../local/siex-simulator/cue-sections';
import { siexSimulatorControl } from '../../local/siex-simulator/control';
import { RunningSiexSimulator, startSiexSimulator } from '../../local/siex-simulator/server';
import { sectionBlocks } from '../../local/siex-simulator/notebook';
import { cueSchemaPath } from '../../local/siex-data';
import { findProjectRoot } from '../../local/stack';
import { CueSection, HoldingResponse } from '../../shared/siex/iuws-protocol';

/**
 * Minimal CUE documents (schema 3.11.4) for the IUWS client and simulator tests, built from what the official schema
 * requires: a CUADERNO item needs CAExplotacion (2 chars), IdTitular, CodigoRea (14 chars) and UnidadGestora; a
 * TratamFito needs IdAjenaTratamFito, FechaInicio, FechaFin (dd/mm/yyyy), DGCs, ProblematicaFito, Justificaciones,
 * IdentificadorAplicador (AplicadorEmpresa.NumROPO and an EquipoAplicador with AplicacionManual and exactly one of
 * NumROMA, NumREGANIP, IdEquipoAplicador) and Eficacia.
 */

export function tratamFito(id: number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    IdAjenaTratamFito: id,
    FechaInicio: '03/03/2025',
    FechaFin: '03/03/2025',
    HoraTratamiento: '09:30',
    DGCs: [{ CodigoDGC: 4600000007, CodigoCultivo: 102, Superficie: 1.25 }],
    ProblematicaFito: { ArtropodosGasteropodos: { TipoPlaga: [12] } },
    Justificaciones: [{ JustAct: 1 }],
    ProductosFito: [{ TipoProducto: 1, NumRegistro: '25473', Dosis: 1.5, Unidad: 18 }],
    IdentificadorAplicador: [
      {
        AplicadorEmpresa: { NumROPO: '1234567890ABC' },
        EquipoAplicador: { AplicacionManual: true, IdEquipoAplicador: 'MANUAL' },
      },
    ],
    Eficacia: 1,
    ...overrides,
  };
}

/** A Fertilizacion block as schema 3.11.4 requires it: IdAjenaFerti, both days, BuenasPracticas and DGCs. */
export function fertilizacion(id: number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    IdAjenaFerti: id,
    FechaInicio: '03/03/2025',
    FechaFin: '03/03/2025',
    BuenasPracticas: [{ TipoBPF: 15 }],
    MaterialFertilizante: { Material: 3, REGA: 'ES460130000123', TratamientoEstiercoles: 1 },
    AplicacionMaterialFertilizante: {
      AplicacionLodos: false,
      TipoFertilizacion: 1,
      MetodoFertilizacion: 2,
      Dosis: 30,
      Unidad: 19,
    },
    DGCs: [{ CodigoDGC: 4600000007, CodigoCultivo: 102, Superficie: 1.25 }],
    ...overrides,
  };
}

/**
 * A Cosecha block as schema 3.11.4 requires it: a section of the notebook no record kind of the gateway writes, to show
 * that the simulator and the client take every section alike.
 */
export function cosecha(id: number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    IdAjenaCosecha: id,
    CosechaSiega: 1,
    FechaInicio: '03/09/2025',
    FechaFin: '05/09/2025',
    DGCs: [{ CodigoDGC: 4600000007, CodigoCultivo: 102, Superficie: 1.25 }],
    SemillasSiembra: false,
    Plantas: false,
    SinCosechado: false,
    DepositadoSuelo: false,
    ...overrides,
  };
}

let sections: CueSection[] | undefined;

/** Every section of the official schema, as the simulator reads them: a client told these can read any result. */
export function schemaSections(): CueSection[] {
  sections ??= cueSections(JSON.parse(readFileSync(cueSchemaPath(findProjectRoot(__dirname)), 'utf8')));
  return sections;
}

/** The TratamFito blocks of a CUE document, across every CUADERNO item. */
export const tratamFitoBlocks = (document: unknown) =>
  sectionBlocks(document, 'TratamFito') as { IdAjenaTratamFito: number }[];

export function cueDocument(
  blocks: Record<string, unknown>[],
  farm: Record<string, unknown> = {},
  fertilizations: Record<string, unknown>[] = [],
  others: Record<string, Record<string, unknown>[]> = {},
): { CUADERNO: unknown[] } {
  return {
    CUADERNO: [
      {
        CAExplotacion: '10',
        IdTitular: '12345678Z',
        CodigoRea: 'ES100000000001',
        UnidadGestora: '12345678Z',
        ...farm,
        ActividadesExplotacion: {
          TratamFito: blocks,
          ...(fertilizations.length ? { Fertilizacion: fertilizations } : {}),
          ...others,
        },
      },
    ],
  };
}

/** A holding as the simulator's exportarREA answers it (shared/siex/iuws-protocol.ts), of the documents' REA code. */
export const HOLDING: HoldingResponse = {
  CodigoRea: 'ES100000000001',
  Campana: 2025,
  Nombre: 'Finca Los Almendros',
  Localidad: 'Requena',
  Provincia: 'Valencia',
  ComunidadAutonoma: { Codigo: '10', Nombre: 'Comunitat Valenciana' },
  Titular: { NIF: '12345678Z', Nombre: 'Ana', Apellidos: 'Pérez', Email: '' },
  UnidadesProduccion: [
    {
      Cultivo: { Codigo: '102', Nombre: 'VIÑA' },
      Variedad: { Codigo: 1001, Nombre: 'TEMPRANILLO' },
      NombreParcela: 'La Hoya',
      Recintos: [
        {
          Provincia: '46',
          Municipio: '213',
          Agregado: 0,
          Zona: 0,
          Poligono: 12,
          Parcela: 45,
          Recinto: 1,
          Superficie: 2.35,
          CodigoDGC: 4600000007,
        },
      ],
    },
  ],
};

/**
 * One SIEX simulator in this process for a test file's IUWS calls over real HTTP: started before its tests, reset
 * before each with `processingMs` as a submission's processing time, stopped after them.
 */
export function simulatorForFile(processingMs: number): {
  url: () => string;
  control: () => ReturnType<typeof siexSimulatorControl>;
} {
  let sim: RunningSiexSimulator | undefined;
  const url = () => sim!.url;
  const control = () => siexSimulatorControl(url());
  beforeAll(async () => {
    sim = await startSiexSimulator({ port: 0 });
    expect(sim.schemaProblem).toBeUndefined();
  });
  afterAll(() => sim?.stop());
  beforeEach(async () => {
    await control().reset();
    await control().set({ processingMs });
  });
  return { url, control };
}
