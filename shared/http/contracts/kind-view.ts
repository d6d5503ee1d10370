import { z } from 'zod';
import { KindView, ViewEntry } from '../../records/kind-entry';
import { Contract } from '../contract';
import { viewRoute } from '../record-routes';

function build(entry: ViewEntry) {
  const view: KindView = entry.load();
  return {
    ...viewRoute(entry),
    summary: view.summary,
    description: view.description,
    query: view.query,
    success: { status: 200, description: view.answers, schema: z.array(view.answer) },
    errors: [...view.errors],
    example: view.example,
  } satisfies Contract;
}

export type ViewContract = ReturnType<typeof build>;

const built = new Map<ViewEntry, ViewContract>();

/**
 * The contract of a view a kind brings (its entry's `views`): a GET of the farm campaign's crop locations, from the
 * view's query, answer, texts, codes and example. Built once per view and process, on its first request (its schemas
 * load then).
 */
export function viewContract(entry: ViewEntry): ViewContract {
  let contract = built.get(entry);
  if (!contract) {
    contract = build(entry);
    built.set(entry, contract);
  }
  return contract;
}
