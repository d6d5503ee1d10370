/**
 * The response shapes of gateway-interface.md, written out by hand from the spec's tables (not derived from the zod
 * schemas the code uses, so a drift in those schemas is caught). Every object must have exactly the spec's keys, and
 * every value the spec's type: integers where the spec says integer, strings where it says string.
 */
import { arr, constant, fail, int, Json, obj, str } from './shape-checks';

export { ShapeError } from './shape-checks';

const SIGPAC_KEYS = ['prov', 'town', 'aggr', 'zone', 'pol', 'parc', 'enc'];
const DATE_TIME_RE = /^\d{2}-\d{2}-\d{4} \d{2}:\d{2}:\d{2}$/;

const urnRe = (type: string) => new RegExp(`^urn:ngsi-ld:${type}:[1-9]\\d{0,9}$`);

/** Checks one `AgriFarm` of the farm lookup response; throws a ShapeError naming the first deviation. */
export function checkFarmShape(v: Json, path = 'farm'): void {
  const f = obj(v, path, [
    'id',
    'name',
    'description',
    'year',
    'dateCreated',
    'address',
    'owned',
    'agriCrop',
    'regionalAttributes',
  ]);
  str(f.id, `${path}.id`, urnRe('AgriFarm'));
  str(f.name, `${path}.name`);
  str(f.description, `${path}.description`);
  int(f.year, `${path}.year`);
  str(f.dateCreated, `${path}.dateCreated`, DATE_TIME_RE);
  const address = obj(f.address, `${path}.address`, ['addressLocality', 'addressCountry']);
  str(address.addressLocality, `${path}.address.addressLocality`);
  str(address.addressCountry, `${path}.address.addressCountry`, /^[A-Z]{2}$/);
  const owned = obj(f.owned, `${path}.owned`, ['name', 'surname', 'email', 'nif']);
  for (const k of ['name', 'surname', 'email', 'nif']) str(owned[k], `${path}.owned.${k}`);
  arr(f.agriCrop, `${path}.agriCrop`).forEach((c, ci) => {
    const at = `${path}.agriCrop[${ci}]`;
    const crop = obj(c, at, ['id', 'crop', 'agriParcel']);
    str(crop.id, `${at}.id`, urnRe('AgriCrop'));
    const variety = obj(crop.crop, `${at}.crop`, ['type', 'typecrop', 'code', 'name']);
    constant(variety.type, `${at}.crop.type`, 'TypeCropVariety');
    const typecrop = obj(variety.typecrop, `${at}.crop.typecrop`, ['type', 'id', 'name']);
    constant(typecrop.type, `${at}.crop.typecrop.type`, 'TypeCrop');
    str(typecrop.id, `${at}.crop.typecrop.id`);
    str(typecrop.name, `${at}.crop.typecrop.name`);
    int(variety.code, `${at}.crop.code`);
    str(variety.name, `${at}.crop.name`);
    arr(crop.agriParcel, `${at}.agriParcel`).forEach((p, pi) => {
      const pat = `${at}.agriParcel[${pi}]`;
      const parcel = obj(p, pat, ['id', 'name', 'sigpac']);
      str(parcel.id, `${pat}.id`, urnRe('AgriParcel'));
      str(parcel.name, `${pat}.name`);
      arr(parcel.sigpac, `${pat}.sigpac`).forEach((s, si) => {
        const sat = `${pat}.sigpac[${si}]`;
        // `cropArea` (issue 23, the REA DGC's declared area) is there only when the back office gives it
        const declared = s !== null && typeof s === 'object' && 'cropArea' in s;
        const enc = obj(s, sat, ['idcp', ...SIGPAC_KEYS, 'dimension', ...(declared ? ['cropArea'] : [])]);
        int(enc.idcp, `${sat}.idcp`);
        for (const k of SIGPAC_KEYS) str(enc[k], `${sat}.${k}`);
        str(enc.dimension, `${sat}.dimension`);
        if (declared) str(enc.cropArea, `${sat}.cropArea`, /^\d+(\.\d{1,2})?$/);
      });
    });
  });
  arr(f.regionalAttributes, `${path}.regionalAttributes`).forEach((r, ri) => {
    const at = `${path}.regionalAttributes[${ri}]`;
    const ra = obj(r, at, ['rea', 'address']);
    str(ra.rea, `${at}.rea`);
    const addr = obj(ra.address, `${at}.address`, ['province', 'community']);
    str(addr.province, `${at}.address.province`);
    const community = obj(addr.community, `${at}.address.community`, ['name']);
    str(community.name, `${at}.address.community.name`);
  });
}

/** Checks the crop-location identifier set (response of listidcp). */
export function checkIdcpSetShape(v: Json, path = 'idcpSet'): void {
  const s = obj(v, path, ['agrifarmId', 'crop', 'idcp']);
  str(s.agrifarmId, `${path}.agrifarmId`);
  const crop = obj(s.crop, `${path}.crop`, ['typecrop', 'code', 'name']);
  const typecrop = obj(crop.typecrop, `${path}.crop.typecrop`, ['id', 'name']);
  str(typecrop.id, `${path}.crop.typecrop.id`);
  str(typecrop.name, `${path}.crop.typecrop.name`);
  int(crop.code, `${path}.crop.code`);
  str(crop.name, `${path}.crop.name`);
  arr(s.idcp, `${path}.idcp`).forEach((e, i) => {
    const item = obj(e, `${path}.idcp[${i}]`, ['idcp', ...SIGPAC_KEYS]);
    int(item.idcp, `${path}.idcp[${i}].idcp`);
    for (const k of SIGPAC_KEYS) str(item[k], `${path}.idcp[${i}].${k}`);
  });
}

/** Checks an RFC 9457 problem details body as docs/interface.md, "Conventions" defines it, with the given HTTP status. */
export function checkProblemShape(v: Json, status: number, path = 'problem'): void {
  const p = obj(v, path, ['type', 'title', 'status', 'detail', 'errors']);
  str(p.type, `${path}.type`, /\S/);
  str(p.title, `${path}.title`, /\S/);
  if (p.status !== status) fail(`${path}.status`, `expected ${status}, got ${JSON.stringify(p.status)}`);
  str(p.detail, `${path}.detail`, /\S/);
  arr(p.errors, `${path}.errors`, 1).forEach((e, i) => {
    const err = obj(e, `${path}.errors[${i}]`, ['code', 'path', 'message']);
    str(err.code, `${path}.errors[${i}].code`, /^[A-Z][A-Z0-9_]*$/);
    str(err.path, `${path}.errors[${i}].path`);
    str(err.message, `${path}.errors[${i}].message`);
  });
}
