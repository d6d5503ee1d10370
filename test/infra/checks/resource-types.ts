import { Finding, Infra, rel } from './model';

/** Every `type@version` is one checked against the documentation (add new ones to verified-resource-types.json). */
export function checkResourceTypes(infra: Infra, verified: string[]): Finding[] {
  const known = new Set(verified.map((v) => v.toLowerCase()));
  const out: Finding[] = [];
  for (const f of infra.files.values())
    for (const r of f.resources) {
      if (!/^[A-Za-z]+\.[A-Za-z]+\/[A-Za-z/]+@\d{4}-\d{2}-\d{2}(-preview)?$/.test(r.typeAndVersion))
        out.push({
          check: 'resource-types',
          file: rel(infra, f.file),
          message: `resource ${r.symbol}: '${r.typeAndVersion}' is not Provider/type@yyyy-mm-dd`,
        });
      else if (!known.has(r.typeAndVersion.toLowerCase()))
        out.push({
          check: 'resource-types',
          file: rel(infra, f.file),
          message: `resource ${r.symbol}: '${r.typeAndVersion}' has not been checked against the documentation (test/infra/verified-resource-types.json)`,
        });
    }
  return out;
}
