import { LRUCache } from 'lru-cache';
import { PageInfo } from '../domain/pagination';

/**
 * The rendered catalogue answers a process keeps (shared/catalog/catalogue-service.ts), in a module of their own: the
 * process builds the cache when it starts its services, and that must not start the catalogue's rules and views,
 * which a request that is not a catalogue look-up never needs (docs/architecture.md, "Cold start").
 */

/** An answer as sent: its JSON text, and for a list, how many items the whole list has and the page sent. */
export interface RenderedAnswer {
  json: string;
  total?: number;
  page?: PageInfo;
}

/** Rendered answers by validator; a miss renders the answer with the function given as context. */
export type AnswerCache = LRUCache<string, RenderedAnswer, () => RenderedAnswer>;

/** How much rendered answer text a process keeps: a few dozen of the largest lists, thousands of small answers. */
const ANSWER_CACHE_CHARS = 32 * 1024 * 1024;

export function answerCache(): AnswerCache {
  // Weighed by characters, not counted: a few large lists and many small answers share the same memory.
  return new LRUCache({
    maxSize: ANSWER_CACHE_CHARS,
    sizeCalculation: (a) => a.json.length,
    memoMethod: (_tag, _stale, { context: render }) => render(),
  });
}
