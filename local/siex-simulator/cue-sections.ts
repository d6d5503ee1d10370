import { CueSection, ID_AJENA } from '../../shared/siex/iuws-protocol';

/**
 * The activity sections of the official CUE schema, read from the schema itself: every member of a CUADERNO item's
 * `ActividadesExplotacion`, each with the field its blocks are named by (the one `IdAjena…` integer its items
 * require). So the simulator takes, keeps and shows every section alike, whichever the gateway sends.
 */

type Node = { [key: string]: unknown };
const isNode = (v: unknown): v is Node => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The node at `path` under `node`, if every step is an object. */
function at(node: unknown, path: readonly string[]): Node | undefined {
  let here = node;
  for (const step of path) here = isNode(here) ? here[step] : undefined;
  return isNode(here) ? here : undefined;
}

const ACTIVITIES = ['properties', 'CUADERNO', 'items', 'properties', 'ActividadesExplotacion', 'properties'];

/** Every section of the schema with its IdAjena field; throws, naming the section, where the schema does not say one. */
export function cueSections(schema: unknown): CueSection[] {
  const activities = at(schema, ACTIVITIES);
  if (!activities) throw new Error('the schema has no CUADERNO[].ActividadesExplotacion members');
  return Object.entries(activities).map(([section, node]) => {
    const item = at(node, ['items']);
    const required = Array.isArray(item?.required) ? (item.required as unknown[]) : [];
    const ids = Object.entries(at(item, ['properties']) ?? {}).filter(
      ([name, field]) => name.startsWith(ID_AJENA) && isNode(field) && field.type === 'integer',
    );
    const idAjena = ids.length === 1 ? ids[0]![0] : undefined;
    if (idAjena === undefined || !required.includes(idAjena))
      throw new Error(
        `section ${section} of the schema has ${ids.length === 1 ? `an IdAjena field it does not require (${idAjena})` : `${ids.length} integer IdAjena fields`}: expected one, required`,
      );
    return { section, idAjena };
  });
}
