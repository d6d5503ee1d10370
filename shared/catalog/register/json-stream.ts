import { createReadStream } from 'node:fs';

/**
 * Streams the products of the register's bulk export without holding the file: the export is about 50-100 MB of
 * `{"Productos":[{...},{...},...]}`, and only one product's text is in memory at a time (it is cut out by tracking
 * nesting and strings, then handed to JSON.parse).
 *
 * Also accepted, because the ministry's download serves it that way: the same document double-serialized, i.e. a JSON
 * string whose content is an envelope `{"Id":..,"Tipo":"CEX","Contenido":"<the document as a string>","Fecha":..}`,
 * or the envelope object itself. String contents are unescaped on the fly into a nested scanner, at most two levels
 * deep. Anything else (no `Productos` array, a truncated file) is an error: a refresh must never take a cut-off
 * download for a register that withdrew the missing products.
 *
 * Hand-written because no library does this within the bound (issue 22, measured on the bench's 32 MB register):
 * @streamparser/json cannot hand out a string's content in pieces, so it would hold the serialized download whole
 * (peak RSS 224 MB against 147 MB); stream-json can, but token by token: 11 times slower on the plain file and 29 times
 * on the serialized one.
 */
export class RegisterFormatError extends Error {}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const MAX_NESTING = 2;

const isWhitespace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

type Sink = (product: unknown) => void;

/** A document serialized into a string of this one: its unescaper, its scanner, and whether it is the whole file. */
interface NestedDocument {
  unescape: StringUnescaper;
  scanner: ProductsScanner;
  whole: boolean;
}

/** Push-based scanner over one JSON document's text; calls `sink` with each element of its `Productos` array. */
export class ProductsScanner {
  private depth = 0;
  private started = false;
  private inString = false;
  private escaped = false;
  private expectingValue = false;
  private key: string | null = null;
  private keyParts: string[] | null = null;
  private inProducts = false;
  private sawProducts = false;
  private element: string[] | null = null;
  private nested: NestedDocument | null = null;
  private finishedWhole = false;
  /** Where, in the piece being pushed, the current product's and key's text starts (-1: not in this piece). */
  private elementFrom = -1;
  private keyFrom = -1;

  constructor(
    private readonly sink: Sink,
    private readonly level = 0,
  ) {}

  push(text: string): void {
    this.elementFrom = this.element ? 0 : -1;
    this.keyFrom = this.keyParts ? 0 : -1;
    let i = 0;
    while (i < text.length) {
      if (this.nested) {
        i = this.feedNested(this.nested, text, i);
        if (i < 0) return;
        continue;
      }
      const c = text.charCodeAt(i);
      if (this.inString) this.stringChar(text, i, c);
      else if (!isWhitespace(c)) this.structuralChar(text, i, c);
      i++;
    }
    // A product or key cut by the end of this piece: keep its start for the next one.
    if (this.element && this.elementFrom >= 0) this.element.push(text.slice(this.elementFrom));
    if (this.keyParts && this.keyFrom >= 0) this.keyParts.push(text.slice(this.keyFrom));
  }

  /** Hands a serialized document's string content to its scanner; the index after its closing quote, or -1. */
  private feedNested(nested: NestedDocument, text: string, from: number): number {
    const { decoded, end } = nested.unescape.feed(text, from);
    if (decoded) nested.scanner.push(decoded);
    if (end < 0) return -1;
    nested.scanner.end();
    this.sawProducts = true;
    if (nested.whole) this.finishedWhole = true;
    this.nested = null;
    this.expectingValue = false;
    return end;
  }

  private stringChar(text: string, i: number, c: number): void {
    if (this.escaped) this.escaped = false;
    else if (c === BACKSLASH) this.escaped = true;
    else if (c === QUOTE) {
      this.inString = false;
      if (this.keyParts) {
        this.keyParts.push(text.slice(this.keyFrom, i + 1));
        this.key = JSON.parse(this.keyParts.join('')) as string;
        this.keyParts = null;
        this.keyFrom = -1;
      } else if (this.depth === 1) this.expectingValue = false;
    }
  }

  private structuralChar(text: string, i: number, c: number): void {
    if (this.finishedWhole) throw new RegisterFormatError('unexpected text after the serialized document');
    if (!this.started && this.startDocument(c)) return;
    if (this.depth === 2 && this.inProducts && !this.element && c !== 0x2c && c !== 0x5d) {
      if (c !== 0x7b) throw new RegisterFormatError('Productos must hold objects');
      this.element = [];
      this.elementFrom = i;
    }
    switch (c) {
      case QUOTE:
        if (this.depth === 1 && !this.expectingValue) {
          this.keyParts = [];
          this.keyFrom = i;
        } else if (this.depth === 1 && this.key === 'Contenido') {
          this.startNested(false);
          return;
        }
        this.inString = true;
        break;
      case 0x3a: // :
        if (this.depth === 1) this.expectingValue = true;
        break;
      case 0x2c: // ,
        if (this.depth === 1) this.expectingValue = false;
        break;
      case 0x7b: // {
      case 0x5b: // [
        this.open(c);
        break;
      case 0x7d: // }
      case 0x5d: // ]
        this.close(text, i);
        break;
    }
  }

  /** The document's first character: an object, or a string holding a serialized one (true when it is the latter). */
  private startDocument(c: number): boolean {
    this.started = true;
    if (c === QUOTE) {
      this.startNested(true);
      return true;
    }
    if (c !== 0x7b) throw new RegisterFormatError('the register export must be a JSON object {"Productos":[...]}');
    return false;
  }

  private open(c: number): void {
    if (this.depth === 1 && this.key === 'Productos') {
      if (c !== 0x5b) throw new RegisterFormatError('Productos must be an array');
      this.inProducts = true;
      this.sawProducts = true;
    }
    this.depth++;
  }

  private close(text: string, i: number): void {
    this.depth--;
    if (this.depth < 0) throw new RegisterFormatError('unbalanced brackets');
    if (this.element && this.depth === 2) {
      this.element.push(text.slice(this.elementFrom, i + 1));
      this.emit(this.element.join(''));
      this.element = null;
      this.elementFrom = -1;
    } else if (this.inProducts && this.depth === 1) this.inProducts = false;
    if (this.depth === 1) this.expectingValue = false;
  }

  /** Call after the last text: checks the document was complete and held the products. */
  end(): void {
    if (this.nested) throw new RegisterFormatError('the file ends inside a serialized document (truncated?)');
    if (this.finishedWhole) return;
    if (!this.started) throw new RegisterFormatError('empty file');
    if (this.inString || this.depth !== 0 || this.element) {
      throw new RegisterFormatError('the file ends inside the document (truncated download?)');
    }
    if (!this.sawProducts) throw new RegisterFormatError('no "Productos" array in the document');
  }

  private startNested(whole: boolean): void {
    if (this.level >= MAX_NESTING) throw new RegisterFormatError('the document is serialized more than twice');
    this.nested = { unescape: new StringUnescaper(), scanner: new ProductsScanner(this.sink, this.level + 1), whole };
  }

  private emit(text: string): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      throw new RegisterFormatError(`a product is not valid JSON: ${(e as Error).message}`);
    }
    this.sink(value);
  }
}

const SIMPLE_ESCAPES: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

/** Decodes the body of a JSON string fed in pieces; stops at the closing quote and says where it was. */
export class StringUnescaper {
  /** An escape sequence cut by the end of the previous piece (`\\`, `\\u00`). */
  private pending = '';

  feed(text: string, from: number): { decoded: string; end: number } {
    let out = '';
    let i = from;
    while (this.pending && i < text.length) {
      this.pending += text[i++];
      if (this.pending.length === (this.pending[1] === 'u' ? 6 : 2)) {
        out += this.decodeEscape(this.pending);
        this.pending = '';
      }
    }
    if (this.pending) return { decoded: out, end: -1 };
    while (i < text.length) {
      const quote = text.indexOf('"', i);
      const slash = text.indexOf('\\', i);
      const next = quote < 0 ? slash : slash < 0 ? quote : Math.min(quote, slash);
      if (next < 0) return { decoded: out + text.slice(i), end: -1 };
      out += text.slice(i, next);
      if (next === quote) return { decoded: out, end: next + 1 };
      const length = text[next + 1] === 'u' ? 6 : 2;
      if (next + length > text.length) {
        this.pending = text.slice(next);
        return { decoded: out, end: -1 };
      }
      out += this.decodeEscape(text.slice(next, next + length));
      i = next + length;
    }
    return { decoded: out, end: -1 };
  }

  private decodeEscape(escape: string): string {
    if (escape[1] === 'u') {
      const code = Number.parseInt(escape.slice(2), 16);
      if (!/^[0-9a-fA-F]{4}$/.test(escape.slice(2))) throw new RegisterFormatError(`bad escape ${escape}`);
      return String.fromCharCode(code);
    }
    const simple = SIMPLE_ESCAPES[escape[1] ?? ''];
    if (simple === undefined) throw new RegisterFormatError(`bad escape ${escape}`);
    return simple;
  }
}

export interface ReadOptions {
  /** Called after each chunk with the bytes read so far (for a progress bar). */
  onBytes?: (bytes: number) => void;
  chunkBytes?: number;
}

/** The products of a register export file, one at a time, as parsed JSON (not yet validated). */
export async function* readRegisterProducts(file: string, options: ReadOptions = {}): AsyncGenerator<unknown> {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: false });
  const found: unknown[] = [];
  const scanner = new ProductsScanner((p) => found.push(p));
  let bytes = 0;
  for await (const chunk of createReadStream(file, { highWaterMark: options.chunkBytes ?? 1 << 20 })) {
    const buffer = chunk as Buffer;
    bytes += buffer.length;
    scanner.push(decoder.decode(buffer, { stream: true }));
    options.onBytes?.(bytes);
    while (found.length) yield found.shift();
  }
  scanner.push(decoder.decode());
  scanner.end();
  while (found.length) yield found.shift();
}
