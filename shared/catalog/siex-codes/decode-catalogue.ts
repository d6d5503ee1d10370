import iconv from 'iconv-lite';

// A module apart from the CSV parser (./csv.ts), which the gateway's rules reach through the catalogues: only an
// import reads the published files, and iconv-lite's code tables were a fifth of the handlers' bundle, which the first
// invocation after a cold start compiles (docs/architecture.md, "Cold start").

/**
 * Windows-1252 bytes as text; a file re-saved as UTF-8 with a BOM is read as UTF-8. Not Node's
 * `TextDecoder('windows-1252')`: Node 20 decodes 0x80-0x9F as ISO-8859-1 control characters, which turns the
 * official unit "€/ha" into "\u0080/ha" (iconv-lite maps them to €, curly quotes, dashes...).
 */
export function decodeCatalogue(bytes: Uint8Array): string {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return new TextDecoder('utf-8').decode(bytes.subarray(3));
  }
  return iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), 'windows-1252');
}
