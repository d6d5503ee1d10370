import { arr, constant, fail, int, Json, obj, str } from './shape-checks';

/**
 * The stored/returned `AgriPhytosanitary` record of gateway-interface.md, written out by hand from the spec's table
 * (not derived from the zod schema the code uses, so a drift there is caught). "All scalar values below are strings
 * unless stated otherwise": the ids the spec calls integer are integers, the flags are "0"/"1" strings, and the
 * fields typed "object or null" are objects or null. Beyond the spec's table the record carries the two request
 * fields it was registered with, `dateApplication` and `applicator`, which the spec's list omits, and what SIEX takes
 * that the spec has no field for: `manual` (applied by hand), `advisor` and `phenology` (issue 12).
 */
const DATE_TIME_RE = /^\d{2}-\d{2}-\d{4} \d{2}:\d{2}:\d{2}$/;
const DAY_RE = /^\d{2}-\d{2}-\d{4}$/;

export const SPEC_RECORD_FIELDS = [
  'id',
  'type',
  'dateCreated',
  'dateModified',
  'subtype',
  'dose',
  'typerisk',
  'infection',
  'detail',
  'tj',
  'idtpismv',
  'distributed',
  'reviewed',
  'exported',
  'batch',
  'soup',
  'measure',
  'dt',
  'mdt',
  'st',
  'mst',
  'efficacy',
  'preventive',
  'pp',
  'speed',
  'recipe',
  'surface',
  'entrylimit',
  'seclimit',
  'machine',
  'idcp',
  'regionalAttributes',
] as const;
export const EXTRA_RECORD_FIELDS = ['dateApplication', 'applicator', 'manual', 'advisor', 'phenology'] as const;

function flag(v: Json, path: string): void {
  str(v, path, /^[01]$/);
}

function measureOrNull(v: Json, path: string): void {
  if (v === null) return;
  const m = obj(v, path, ['type', 'name', 'symbol', 'code']);
  constant(m.type, `${path}.type`, 'Measure');
  str(m.name, `${path}.name`);
  str(m.symbol, `${path}.symbol`);
  int(m.code, `${path}.code`);
}

/** Checks one record; throws a ShapeError naming the first deviation from the spec's table. */
export function checkPhytoRecordShape(v: Json, path = 'record'): void {
  const r = obj(v, path, [...SPEC_RECORD_FIELDS, ...EXTRA_RECORD_FIELDS]);
  str(r.id, `${path}.id`, /^urn:ngsi-ld:AgriPhytosanitary:[1-9]\d{0,9}$/);
  constant(r.type, `${path}.type`, 'AgriPhytosanitary');
  str(r.dateApplication, `${path}.dateApplication`, DATE_TIME_RE);
  // "creation and last-modification time (may be empty)"
  str(r.dateCreated, `${path}.dateCreated`, /^(\d{2}-\d{2}-\d{4} \d{2}:\d{2}:\d{2})?$/);
  str(r.dateModified, `${path}.dateModified`, /^(\d{2}-\d{2}-\d{4} \d{2}:\d{2}:\d{2})?$/);

  const s = obj(r.subtype, `${path}.subtype`, ['type', 'id', 'name', 'subtype', 'tpd', 'prod']);
  constant(s.type, `${path}.subtype.type`, 'TypePhytosanitary');
  int(s.id, `${path}.subtype.id`);
  str(s.name, `${path}.subtype.name`);
  const ss = obj(s.subtype, `${path}.subtype.subtype`, ['type', 'id', 'idpdf', 'code', 'comp', 'subs', 'detail', 'ci']);
  constant(ss.type, `${path}.subtype.subtype.type`, 'SubtypePhytosanitary');
  int(ss.id, `${path}.subtype.subtype.id`);
  str(ss.idpdf, `${path}.subtype.subtype.idpdf`);
  str(ss.code, `${path}.subtype.subtype.code`, /^ES-\d{5}$/);
  const comp = obj(ss.comp, `${path}.subtype.subtype.comp`, ['type', 'id', 'name', 'nif']);
  constant(comp.type, `${path}.subtype.subtype.comp.type`, 'Company');
  int(comp.id, `${path}.subtype.subtype.comp.id`);
  str(comp.name, `${path}.subtype.subtype.comp.name`);
  str(comp.nif, `${path}.subtype.subtype.comp.nif`);
  const subs = obj(ss.subs, `${path}.subtype.subtype.subs`, ['type', 'id', 'name']);
  constant(subs.type, `${path}.subtype.subtype.subs.type`, 'Substance');
  str(subs.id, `${path}.subtype.subtype.subs.id`);
  str(subs.name, `${path}.subtype.subtype.subs.name`);
  str(ss.detail, `${path}.subtype.subtype.detail`);
  arr(ss.ci, `${path}.subtype.subtype.ci`);
  arr(s.tpd, `${path}.subtype.tpd`).forEach((t, i) => {
    const at = `${path}.subtype.tpd[${i}]`;
    const tpd = obj(t, at, ['type', 'id', 'idate', 'edate', 'ldate']);
    constant(tpd.type, `${at}.type`, 'TPD');
    int(tpd.id, `${at}.id`);
    str(tpd.idate, `${at}.idate`, DAY_RE);
    str(tpd.edate, `${at}.edate`, DAY_RE);
    str(tpd.ldate, `${at}.ldate`, /^(\d{2}-\d{2}-\d{4})?$/);
  });
  const prod = obj(s.prod, `${path}.subtype.prod`, ['type', 'id', 'name']);
  constant(prod.type, `${path}.subtype.prod.type`, 'TypeProduct');
  int(prod.id, `${path}.subtype.prod.id`);
  str(prod.name, `${path}.subtype.prod.name`);

  str(r.dose, `${path}.dose`);
  const risk = obj(r.typerisk, `${path}.typerisk`, ['type', 'id', 'name', 'detail']);
  constant(risk.type, `${path}.typerisk.type`, 'TypeRisk');
  for (const k of ['id', 'name', 'detail']) str(risk[k], `${path}.typerisk.${k}`);
  if (r.infection !== null) {
    const inf = obj(r.infection, `${path}.infection`, ['type', 'kind', 'id', 'name']);
    constant(inf.type, `${path}.infection.type`, 'TypeInfection');
    for (const k of ['kind', 'id', 'name']) str(inf[k], `${path}.infection.${k}`);
  }
  if (r.detail !== null) str(r.detail, `${path}.detail`);
  arr(r.tj, `${path}.tj`).forEach((t, i) => {
    const tj = obj(t, `${path}.tj[${i}]`, ['type', 'id', 'name']);
    constant(tj.type, `${path}.tj[${i}].type`, 'TypeJustification');
    str(tj.id, `${path}.tj[${i}].id`);
    str(tj.name, `${path}.tj[${i}].name`);
  });
  arr(r.idtpismv, `${path}.idtpismv`).forEach((x, i) => str(x, `${path}.idtpismv[${i}]`));
  for (const k of ['distributed', 'reviewed', 'exported', 'preventive']) flag(r[k], `${path}.${k}`);
  for (const k of ['batch', 'soup', 'dt', 'st', 'pp', 'speed', 'recipe', 'surface', 'entrylimit', 'seclimit'])
    str(r[k], `${path}.${k}`);
  for (const k of ['measure', 'mdt', 'mst']) measureOrNull(r[k], `${path}.${k}`);
  const eff = obj(r.efficacy, `${path}.efficacy`, ['type', 'id', 'name', 'detail']);
  constant(eff.type, `${path}.efficacy.type`, 'TypeEfficacy');
  for (const k of ['id', 'name', 'detail']) str(eff[k], `${path}.efficacy.${k}`);
  arr(r.machine, `${path}.machine`).forEach((x, i) => {
    const keys = ['type', 'id', 'name', 'roma', 'inspection', 'ref'];
    // `registered` (issue 23) is there only when the client gave it
    const m = obj(
      x,
      `${path}.machine[${i}]`,
      x && typeof x === 'object' && 'registered' in x ? [...keys, 'registered'] : keys,
    );
    constant(m.type, `${path}.machine[${i}].type`, 'Machine');
    for (const k of ['id', 'name', 'roma', 'ref']) str(m[k], `${path}.machine[${i}].${k}`);
    str(m.inspection, `${path}.machine[${i}].inspection`, /^(\d{2}-\d{2}-\d{4})?$/);
    if ('registered' in m) str(m.registered, `${path}.machine[${i}].registered`, /^\d{2}-\d{2}-\d{4}$/);
  });
  if (typeof r.manual !== 'boolean') fail(`${path}.manual`, 'expected a boolean');
  if (r.advisor !== null) {
    const withNif = typeof r.advisor === 'object' && !Array.isArray(r.advisor) && 'nif' in r.advisor;
    const adv = obj(r.advisor, `${path}.advisor`, withNif ? ['type', 'ropo', 'nif'] : ['type', 'ropo']);
    constant(adv.type, `${path}.advisor.type`, 'UserMetadata');
    str(adv.ropo, `${path}.advisor.ropo`, /^ES-\d{8}$/);
    if (withNif) str(adv.nif, `${path}.advisor.nif`, /^[0-9XYZ]\d{7}[A-Z]$/);
  }
  if (r.phenology !== null) {
    const ph = obj(r.phenology, `${path}.phenology`, ['type', 'id', 'name']);
    constant(ph.type, `${path}.phenology.type`, 'TypePhenology');
    for (const k of ['id', 'name']) str(ph[k], `${path}.phenology.${k}`);
  }
  arr(r.idcp, `${path}.idcp`).forEach((x, i) => str(x, `${path}.idcp[${i}]`, /^[1-9]\d*$/));
  arr(r.regionalAttributes, `${path}.regionalAttributes`).forEach((x, i) => {
    if (x === null || typeof x !== 'object' || Array.isArray(x))
      fail(`${path}.regionalAttributes[${i}]`, 'expected an object');
  });
  const app = obj(r.applicator, `${path}.applicator`, ['user']);
  const user = obj(app.user, `${path}.applicator.user`, ['type', 'nif', 'ropo']);
  constant(user.type, `${path}.applicator.user.type`, 'UserMetadata');
  str(user.nif, `${path}.applicator.user.nif`);
  str(user.ropo, `${path}.applicator.user.ropo`, /^ES-\d{8}$/);
}

/** A product as answers show it: its register code beside the register's data (issue 26), checked and taken off. */
function storedProduct(v: Json, path: string): Json {
  const { code, ...product } = obj(v, path, ['type', 'id', 'name', 'subtype', 'tpd', 'prod', 'code']);
  const inner = obj(product.subtype, `${path}.subtype`, [
    'type',
    'id',
    'idpdf',
    'code',
    'comp',
    'subs',
    'detail',
    'ci',
  ]);
  constant(code, `${path}.code`, str(inner.code, `${path}.subtype.code`));
  return product;
}

/**
 * A record (without a mix) as every answer shows it (issue 26): the stored record, its product with its code, and whether an export
 * would send it now (`exportable`, true exactly when `exportBlockers`, MISSING_DATA items, is empty).
 */
export function checkAnsweredRecordShape(v: Json, path = 'record'): void {
  const { exportable, exportBlockers, ...stored } = obj(v, path, [
    ...SPEC_RECORD_FIELDS,
    ...EXTRA_RECORD_FIELDS,
    'exportable',
    'exportBlockers',
  ]);
  const blockers = arr(exportBlockers, `${path}.exportBlockers`);
  blockers.forEach((b, i) => {
    const blocker = obj(b, `${path}.exportBlockers[${i}]`, ['code', 'message']);
    constant(blocker.code, `${path}.exportBlockers[${i}].code`, 'MISSING_DATA');
    str(blocker.message, `${path}.exportBlockers[${i}].message`, /./);
  });
  if (exportable !== (blockers.length === 0)) fail(`${path}.exportable`, `expected ${blockers.length === 0}`);
  checkPhytoRecordShape({ ...stored, subtype: storedProduct(stored.subtype, `${path}.subtype`) }, path);
}
