import { z } from 'zod';
import { DEMO_FARM } from './examples';

/** The notebook reconciliation: what SIEX holds of a farm campaign against the gateway's records. */
export const notebookQuerySchema = z.object({
  agrifarmId: z.string().min(1).describe('farm URN from the farm lookup'),
});

export type NotebookQuery = z.infer<typeof notebookQuerySchema>;

const section = z.string().describe('the CUE section (`ActividadesExplotacion` member) of the block');
const idAjena = z.number().int().describe("the block's IdAjena, its id within its section");
const record = z.string().describe("the gateway's record (URN) the block is of");

const counts = z.object({
  section,
  matched: z.number().int().describe('blocks both SIEX and the gateway hold'),
  onlyInSiex: z.number().int().describe('blocks SIEX holds that no record of the gateway names'),
  missingInSiex: z.number().int().describe('blocks of records the gateway marks exported that SIEX does not hold'),
});

export const notebookSchema = z.object({
  agrifarmId: z.string().describe('the farm campaign'),
  codigoRea: z.string().describe('the REA code SIEX was asked for'),
  campaign: z.number().int().describe("the farm campaign's year, the campaign SIEX was asked for"),
  sections: z.array(counts).describe('per CUE section either side holds a block of, by name'),
  matched: z
    .array(z.object({ section, idAjena, record }))
    .describe('blocks SIEX holds as the gateway says it does, by section then IdAjena'),
  onlyInSiex: z
    .array(
      z.object({
        section,
        idAjena,
        notebook: z
          .string()
          .optional()
          .describe('the notebook (its `IdCuaderno`, an integer in the CUE schema) that sent it, when SIEX says which'),
        block: z.record(z.string(), z.unknown()).describe('the block as SIEX holds it (CUE schema 3.11.4)'),
      }),
    )
    .describe('blocks SIEX holds that no record of the gateway names: entered elsewhere, by section then IdAjena'),
  missingInSiex: z
    .array(
      z.object({
        section,
        idAjena,
        record,
        state: z
          .enum(['exported', 'changed', 'outcome-unknown'])
          .describe(
            "the record's export state: exported, changed since SIEX took it, or sent by a job whose outcome is unknown",
          ),
      }),
    )
    .describe('blocks of records the gateway marks exported that SIEX does not hold, by section then IdAjena'),
});

export type NotebookAnswer = z.infer<typeof notebookSchema>;

export const notebookExample = {
  query: { agrifarmId: DEMO_FARM },
  response: {
    agrifarmId: DEMO_FARM,
    codigoRea: 'ES460000000001',
    campaign: 2026,
    sections: [
      { section: 'Riego', matched: 0, onlyInSiex: 1, missingInSiex: 0 },
      { section: 'TratamFito', matched: 1, onlyInSiex: 0, missingInSiex: 1 },
    ],
    matched: [{ section: 'TratamFito', idAjena: 1, record: 'urn:ngsi-ld:AgriPhytosanitary:1' }],
    onlyInSiex: [
      {
        section: 'Riego',
        idAjena: 900001,
        notebook: '2024',
        block: {
          IdAjenaRiego: 900001,
          FechaInicio: '20/11/2026',
          FechaFin: '20/11/2026',
          SistemaRiego: 2,
          Cantidad: 35,
          UnidadMedida: 1,
          DGCs: [{ CodigoDGC: 4600000000101 }],
        },
      },
    ],
    missingInSiex: [
      { section: 'TratamFito', idAjena: 2, record: 'urn:ngsi-ld:AgriPhytosanitary:2', state: 'exported' },
    ],
  } satisfies z.output<typeof notebookSchema>,
};
