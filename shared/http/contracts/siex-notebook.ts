import { notebookExample, notebookQuerySchema, notebookSchema } from '../../api/notebook-schemas';
import { Contract } from '../contract';
import { CORE_ROUTES } from '../routes';

export const siexNotebookContract = {
  ...CORE_ROUTES.siexNotebook,
  summary: "What SIEX holds of a farm campaign against the gateway's exported records",
  description:
    "Reads the farm's notebook from SIEX (IUWS `exportar`, for the farm's REA code and campaign) and reconciles it " +
    'with the records the gateway marks exported, block by block: a CUE block is its section and its IdAjena. ' +
    '`matched` lists the blocks both hold; `onlyInSiex` those SIEX holds that no record of the gateway names (entered ' +
    'elsewhere: another notebook, the farmer on the paying agency, a record registered with `exported=1`), with the ' +
    'block as SIEX holds it; `missingInSiex` the blocks of records the gateway marks exported (or changed since, or ' +
    'sent by a job of unknown outcome) that SIEX does not hold; `sections` counts the three per section. FEGA does not ' +
    'publish the shapes of `exportar`: the gateway speaks the SIEX simulator\'s until it does (README, "Reading SIEX ' +
    'back"). Each call reads SIEX anew; 503 `SIEX_READ_FAILED` with Retry-After when SIEX cannot be read.',
  query: notebookQuerySchema,
  success: { status: 200, description: 'the reconciliation', schema: notebookSchema },
  errors: ['AGRIFARM_NOT_FOUND', 'FARM_WITHOUT_REA_CODE', 'SIEX_READ_FAILED'],
  example: notebookExample,
} satisfies Contract;
