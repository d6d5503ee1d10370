import { z } from 'zod';
import { REA_RE } from '../domain/nif';
import { queryInteger } from './query-params';

/** Response and request shapes of the farm lookup and crop-location identifier operations, field by field as the spec. */
const sigpacCodes = {
  prov: z.string().describe('province code'),
  town: z.string().describe('municipality code'),
  aggr: z.string().describe('aggregate code'),
  zone: z.string().describe('zone code'),
  pol: z.string().describe('polygon code'),
  parc: z.string().describe('parcel code'),
  enc: z.string().describe('enclosure code'),
};

const enclosureViewSchema = z
  .object({
    idcp: z.number().int().describe('crop-plot identifier, used in the idcp array of phytosanitary records'),
    ...sigpacCodes,
    dimension: z.string().describe('enclosure area in hectares'),
    cropArea: z
      .string()
      .optional()
      .describe(
        "hectares of this crop on the enclosure as the REA declares them (the DGC's area); absent when not declared",
      ),
  })
  .meta({ id: 'SigpacEnclosure' });

const typeCropSchema = z.object({
  type: z.literal('TypeCrop'),
  id: z.string().describe('official SIEX crop-type code'),
  name: z.string(),
});

const cropVarietySchema = z.object({
  type: z.literal('TypeCropVariety'),
  typecrop: typeCropSchema,
  code: z.number().int().describe('variety code'),
  name: z.string().describe('variety name'),
});

export const farmSchema = z
  .object({
    id: z.string().describe('NGSI-LD URN of the farm campaign; used as agrifarmId'),
    name: z.string(),
    description: z.string(),
    year: z.number().int().describe('campaign year'),
    dateCreated: z.string().describe('DD-MM-YYYY HH:mm:ss'),
    address: z.object({ addressLocality: z.string(), addressCountry: z.string().describe('ISO 3166-1 alpha-2') }),
    owned: z.object({ name: z.string(), surname: z.string(), email: z.string(), nif: z.string() }),
    agriCrop: z.array(
      z.object({
        id: z.string(),
        crop: cropVarietySchema,
        agriParcel: z.array(z.object({ id: z.string(), name: z.string(), sigpac: z.array(enclosureViewSchema) })),
      }),
    ),
    regionalAttributes: z.array(
      z.object({
        rea: z.string(),
        address: z.object({ province: z.string(), community: z.object({ name: z.string() }) }),
      }),
    ),
  })
  .meta({ id: 'AgriFarm' });

export type FarmView = z.infer<typeof farmSchema>;

export const farmLookupQuerySchema = z.object({
  rea: z.string().regex(REA_RE, 'REA code: 1 to 20 letters or digits'),
  year: queryInteger(1000, 9999, 'campaign year: four digits').describe('campaign year'),
});

/** SIGPAC codes in requests: digits, as text (leading zeros allowed: `046` is province 46). */
const sigpacCodeInput = z.string().regex(/^\d{1,6}$/, 'digits');

export const listIdcpBodySchema = z
  .strictObject({
    type: z.literal('IDCP'),
    crop: z.strictObject({
      type: z.literal('TypeCropVariety'),
      typecrop: z.strictObject({
        id: z.string().regex(/^\d+$/, 'SIEX crop code'),
        type: z.literal('TypeCrop'),
        name: z.string(),
      }),
      code: z.number().int().nonnegative(),
      name: z.string(),
    }),
    regionalAttributes: z
      .array(
        z.strictObject({
          sigpac: z
            .array(
              z.strictObject({
                prov: sigpacCodeInput,
                town: sigpacCodeInput,
                aggr: sigpacCodeInput,
                zone: sigpacCodeInput,
                pol: sigpacCodeInput,
                parc: sigpacCodeInput,
                enc: sigpacCodeInput,
              }),
            )
            .min(1),
        }),
      )
      .min(1),
  })
  .meta({ id: 'IdcpRequest' });

export type ListIdcpBody = z.infer<typeof listIdcpBodySchema>;

export const agrifarmQuerySchema = z.object({
  agrifarmId: z.string().min(1).describe('farm URN from the farm lookup'),
});

export const idcpSetSchema = z
  .object({
    agrifarmId: z.string(),
    crop: z.object({
      typecrop: z.object({ id: z.string(), name: z.string() }),
      code: z.number().int(),
      name: z.string(),
    }),
    idcp: z.array(z.object({ idcp: z.number().int(), ...sigpacCodes })),
  })
  .meta({ id: 'IdcpSet' });

export type IdcpSet = z.infer<typeof idcpSetSchema>;
