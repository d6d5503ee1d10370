import { z } from 'zod';
import { refusedItem } from '../api/examples';
import { DEMO_AMENDED, recordExamples } from '../api/record-examples';
import { OperationExample, RecordOperation } from '../records/kind-entry';
import { facilityPatchSchema, facilityRecordViewSchema, facilityRequestSchema } from './wire';

/**
 * The worked examples of the store treatments' operations in the OpenAPI document, on the demo data (`npm start`):
 * the farm's empty grain store sprayed against store insects with K-OBIOL EC 25 (its use on "Almacenes", 0.4-0.6
 * cc/m2) before the harvest goes in. Typed by the kind's schemas, and parsed by the contracts in a unit test.
 */
const RECORD = 'urn:ngsi-ld:AgriFacilityTreatment:1';

const spraying = {
  type: 'AgriFacilityTreatment',
  dateApplication: '20-11-2026 08:45:00',
  facilities: [
    {
      type: 'TypeFacility',
      id: '3',
      name: 'Almacén de productos y materias primas',
      reaId: 4600012,
      volume: 850,
      measure: { type: 'Measure', name: 'Metro cúbico', symbol: 'm3', code: 3 },
    },
  ],
  subtype: { type: 'TypePhytosanitary', name: 'K-OBIOL EC 25', code: 'ES-25710' },
  dose: 0.5,
  measure: { type: 'Measure', name: 'Centímetros cúbicos por metro cuadrado', symbol: 'cc/m2', code: 78 },
  applicator: { user: { type: 'UserMetadata', nif: '12345678Z', ropo: 'ES-46000123' } },
  infection: { type: 'TypeInfection', kind: 'plaga', id: '33', name: 'Insectos de almacén' },
  tj: [{ type: 'TypeJustification', id: '2', name: 'Monitorización' }],
  efficacy: { type: 'TypeEfficacy', id: '1', name: 'Buena', detail: '' },
  machine: [{ type: 'Machine', id: '060303013', name: 'Mochila 16 L', ref: 'MOCHILA-1' }],
} as const satisfies z.input<typeof facilityRequestSchema>;

const record = {
  id: RECORD,
  ...spraying,
  facilities: [...spraying.facilities],
  machine: [{ ...spraying.machine[0], roma: '', inspection: '' }],
  dateCreated: '20-11-2026 10:12:05',
  dateModified: '',
  exported: '0',
  exportable: true,
  exportBlockers: [],
} satisfies z.output<typeof facilityRecordViewSchema>;

// A weed has no place in a store's block.
const weed = { type: 'TypeInfection', kind: 'mala_hierba', id: '1', name: 'Malas hierbas' } as const;

const amendedEfficacy = { type: 'TypeEfficacy', id: '2', name: 'Regular', detail: 'polillas a los 20 días' } as const;

export const facilityExamples: Record<RecordOperation, OperationExample> = recordExamples({
  id: RECORD,
  request: spraying,
  record,
  batch: {
    request: [spraying, { ...spraying, infection: weed }],
    response: [
      { index: 0, status: 201, etag: '"1"', body: [record] },
      refusedItem(1, [
        {
          code: 'INFECTION_KIND_NOT_IN_BLOCK',
          path: 'body.infection.kind',
          message: 'a mala_hierba cannot be the problem of this treatment: its CUE block states only enfermedad, plaga',
        },
        {
          code: 'PEST_NOT_AUTHORIZED',
          path: 'body.infection',
          message: 'ES-25710 is not authorized against mala_hierba 1 on a store or premises',
        },
      ]),
    ],
  },
  amendment: { efficacy: amendedEfficacy } satisfies z.input<typeof facilityPatchSchema>,
  amended: { ...record, efficacy: amendedEfficacy, dateModified: DEMO_AMENDED } satisfies z.output<
    typeof facilityRecordViewSchema
  >,
  changed: [{ field: 'efficacy', old: spraying.efficacy, new: amendedEfficacy }],
});
