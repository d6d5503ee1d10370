/**
 * Stores a JSON document inside one table entity, split across string properties `d0`, `d1`, ... because a
 * property holds at most 64 KiB (32K UTF-16 characters) while an entity holds up to 1 MB. A second document in the
 * same entity uses another prefix (`q0`, `q1`, ... and `qn`).
 */
const CHUNK_CHARS = 30_000;
/** 1 MB per entity, less room for keys, timestamps and the other properties. */
export const MAX_DOC_CHARS = CHUNK_CHARS * 15;

/** The properties a document takes: `<prefix>0`, `<prefix>1`, ... (text) and `<prefix>n` (how many). */
export type DocProps = Record<string, string | number>;

class DocumentTooLargeError extends Error {}

/**
 * JSON text with U+2028 and U+2029 written as escapes: JSON allows them raw, but Azurite's transaction parser takes
 * them for line ends and fails the whole batch, so a treatment note pasted with a line separator could not be stored.
 * The escaped text parses back to the same document.
 */
function docText(doc: unknown): string {
  return JSON.stringify(doc).replace(/[\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
}

export function toDocProps(doc: unknown, prefix = 'd'): DocProps {
  return chunkText(docText(doc), prefix);
}

export function chunkText(text: string, prefix = 'd'): DocProps {
  if (text.length > MAX_DOC_CHARS) {
    throw new DocumentTooLargeError(`document of ${text.length} characters exceeds ${MAX_DOC_CHARS}`);
  }
  const props: Record<string, string | number> = { [`${prefix}n`]: 0 };
  for (let i = 0; i * CHUNK_CHARS < text.length || i === 0; i++) {
    props[`${prefix}${i}`] = text.slice(i * CHUNK_CHARS, (i + 1) * CHUNK_CHARS);
    props[`${prefix}n`] = i + 1;
  }
  return props;
}

export function fromDocText(entity: Record<string, unknown>, prefix = 'd'): string {
  const n = Number(entity[`${prefix}n`] ?? 0);
  let text = '';
  for (let i = 0; i < n; i++) {
    const part = entity[`${prefix}${i}`];
    if (typeof part === 'string') text += part;
  }
  return text;
}

export function fromDocProps<T>(entity: Record<string, unknown>, prefix = 'd'): T {
  return JSON.parse(fromDocText(entity, prefix)) as T;
}
