import { z } from 'zod';
import { applicatorSchema } from '../catalog/applicator';
import { productSchema } from '../catalog/product';
import { clientRegistrationSchema } from '../clients/client-registration';
import { farmSchema } from '../farms/farm';

/**
 * The back-office dataset (docs/backoffice-dataset.md): what operators load with `npm run admin -- import`. Its entries
 * are the domain's own records; unknown fields are rejected everywhere, so a typo in a field name is reported instead
 * of silently ignored.
 */
export const datasetSchema = z.strictObject({
  clients: z.array(clientRegistrationSchema).default([]),
  applicators: z.array(applicatorSchema).default([]),
  products: z.array(productSchema).default([]),
  farms: z.array(farmSchema).default([]),
});
export type Dataset = z.infer<typeof datasetSchema>;
