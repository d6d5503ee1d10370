import { z } from 'zod';
import {
  nutrientBalanceExample,
  nutrientBalanceQuerySchema,
  nutrientBalanceSchema,
} from '../../api/nutrient-balance-schemas';
import { Contract } from '../contract';
import { CORE_ROUTES } from '../routes';

export const nutrientBalanceContract = {
  ...CORE_ROUTES.nutrientBalance,
  summary: "Each crop location's fertilization plan against its fertilizations",
  description:
    'Beyond SIEX: per crop location of the farm campaign (or the one `idcp` names), the needs of its fertilization ' +
    "plan in N, P2O5 and K2O (kg/ha; RD 1051/2022 art. 6) against what the campaign's fertilizations brought it " +
    "(kg/ha of the location: each record's dose times its material's N total, P2O5 total and K2O contents, times the " +
    'share of the location it covered when it states a smaller surface), and `exceeds`, the nutrients applied above ' +
    "the plan. The plan is the location's last one drawn up in the campaign; a location without a plan shows what was " +
    'applied and exceeds nothing. Read from the stored records as they are now, deleted ones left out.',
  query: nutrientBalanceQuerySchema,
  success: { status: 200, description: 'the crop locations, by idcp', schema: z.array(nutrientBalanceSchema) },
  errors: ['AGRIFARM_NOT_FOUND', 'IDCP_NOT_FOUND'],
  example: nutrientBalanceExample,
} satisfies Contract;
