import { serve } from '../shared/app/serve';
import { UseCases } from '../shared/app/use-cases';
import { siexNotebookContract } from '../shared/http/contracts/siex-notebook';
import { HandleOf } from '../shared/http/endpoint';

export const siexNotebook: HandleOf<typeof siexNotebookContract, UseCases> = async ({ client, query }, useCases) => ({
  status: 200,
  json: await useCases.siexNotebook(client, query),
});

export const handler = serve(siexNotebookContract, siexNotebook);
