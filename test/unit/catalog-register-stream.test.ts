import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  ProductsScanner,
  readRegisterProducts,
  RegisterFormatError,
  StringUnescaper,
} from '../../shared/catalog/register/json-stream';
import { cabrio, microthiol, registerDocument } from './catalog-fixtures';

/** Feeds the text in pieces of `size` characters, as a file stream would cut it. */
function scan(text: string, size: number): unknown[] {
  const found: unknown[] = [];
  const scanner = new ProductsScanner((p) => found.push(p));
  for (let i = 0; i < text.length; i += size) scanner.push(text.slice(i, i + size));
  scanner.end();
  return found;
}

describe('streaming the register export', () => {
  const document = registerDocument([microthiol(), cabrio()]);
  const plain = JSON.stringify(document, null, 2);
  const envelope = JSON.stringify({
    Id: 7,
    Tipo: 'CEX',
    Contenido: JSON.stringify(document),
    Fecha: '2026-10-02T00:00:00',
  });

  it.each([1, 2, 7, 64, 100_000])('yields each product whole, whatever the chunk size (%i)', (size) => {
    expect(scan(plain, size)).toEqual(document.Productos);
  });

  it('reads the envelope object and the double-serialized download the ministry serves', () => {
    expect(scan(envelope, 13)).toEqual(document.Productos);
    expect(scan(JSON.stringify(envelope), 1)).toEqual(document.Productos);
    expect(scan(JSON.stringify(envelope), 4096)).toEqual(document.Productos);
  });

  it('is not fooled by brackets, quotes and escapes inside strings, nor by other top-level fields', () => {
    const tricky = {
      Version: { nested: ['[', '{'] },
      Productos: [{ DATOSPRODUCTO: { Nombre: 'A "B" {C} [D] \\ é \u00e9 \ud83c\udf47' } }, { DATOSPRODUCTO: {} }],
      Fin: '"]}',
    };
    expect(scan(JSON.stringify(tricky), 3)).toEqual(tricky.Productos);
    expect(scan(JSON.stringify(JSON.stringify(tricky)), 5)).toEqual(tricky.Productos);
  });

  it('refuses a truncated file, so a cut-off download cannot withdraw products', () => {
    expect(() => scan(plain.slice(0, plain.length - 40), 50)).toThrow(RegisterFormatError);
    expect(() => scan(JSON.stringify(envelope).slice(0, 500), 50)).toThrow(/truncated/);
  });

  it('refuses documents that are not the register export', () => {
    expect(() => scan('{"Products":[]}', 4)).toThrow(/no "Productos"/);
    expect(() => scan('[1,2]', 4)).toThrow(RegisterFormatError);
    expect(() => scan('{"Productos":[1]}', 4)).toThrow(/objects/);
    expect(() => scan('', 4)).toThrow(/empty/);
    expect(() => scan(JSON.stringify(JSON.stringify(JSON.stringify(envelope))), 100)).toThrow(/more than twice/);
  });

  it('unescapes a JSON string split anywhere, even inside \\u escapes', () => {
    const body = JSON.stringify('a\\"b\n\u00e9\ud83c\udf47"').slice(1);
    for (let cut = 0; cut < body.length; cut++) {
      const u = new StringUnescaper();
      const first = u.feed(body.slice(0, cut), 0);
      const second = u.feed(body.slice(cut) + 'tail', 0);
      expect(first.decoded + second.decoded).toBe('a\\"b\n\u00e9\ud83c\udf47"');
      expect(second.end).toBe(body.length - cut);
    }
  });

  it('reads a file in chunks, strips a BOM, decodes UTF-8 split across chunks, and reports bytes read', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'register-'));
    try {
      const file = path.join(dir, 'register.json');
      writeFileSync(file, `\ufeff${plain}`, 'utf8');
      const seen: number[] = [];
      const products: unknown[] = [];
      for await (const p of readRegisterProducts(file, { chunkBytes: 17, onBytes: (b) => seen.push(b) }))
        products.push(p);
      expect(products).toEqual(document.Productos);
      expect(seen[seen.length - 1]).toBe(Buffer.byteLength(`\ufeff${plain}`));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
