import { Farm } from '../farms/farm';
import { cropKey, CropEntry, FarmIndexDoc, FarmMeta, IdcpEntry } from '../farms/farm-index';
import { pickSigpac, sigpacCode } from '../farms/sigpac';

export type IdKind = 'AgriFarm' | 'AgriCrop' | 'AgriParcel' | 'idcp';
export type TakeId = (kind: IdKind) => Promise<number>;

/**
 * Builds a farm campaign's index, reusing every id the previous import assigned (farm, crop, parcel, idcp) so that
 * ids stay stable for the campaign; only combinations new to this import take new ids.
 */
export async function buildFarmIndex(
  farm: Farm,
  previous: FarmIndexDoc | null,
  dateCreated: string,
  takeId: TakeId,
): Promise<FarmIndexDoc> {
  const oldCrops = new Map((previous?.crops ?? []).map((c) => [cropKey(c.typecropId, c.code), c]));
  const oldIdcps = new Map(
    (previous?.idcps ?? []).map((e) => {
      const c = previous!.crops[e.crop]!;
      return [`${cropKey(c.typecropId, c.code)}|${sigpacCode(e)}`, e];
    }),
  );
  const oldParcels = new Map(
    (previous?.idcps ?? []).map((e) => {
      const c = previous!.crops[e.crop]!;
      return [`${cropKey(c.typecropId, c.code)}|${e.parcelName}`, e.parcelId];
    }),
  );

  const meta: FarmMeta = {
    farmId: previous?.meta.farmId ?? (await takeId('AgriFarm')),
    rea: farm.rea,
    codigoRea: farm.codigoRea ?? (farm.rea.length === 14 ? farm.rea : ''),
    year: farm.year,
    name: farm.name,
    province: farm.province,
    communityCode: farm.community.code,
    communityName: farm.community.name,
    ownerNif: farm.owner.nif,
    ...(farm.sustainableInputs !== undefined ? { sustainableInputs: farm.sustainableInputs } : {}),
    dateCreated: previous?.meta.dateCreated ?? dateCreated,
  };
  const crops: CropEntry[] = [];
  const idcps: IdcpEntry[] = [];
  const vulnerable = new Set<string>();
  for (const crop of farm.crops) {
    const key = cropKey(crop.typecrop.id, crop.code);
    const cropIdx = crops.length;
    crops.push({
      cropId: oldCrops.get(key)?.cropId ?? (await takeId('AgriCrop')),
      typecropId: crop.typecrop.id,
      typecropName: crop.typecrop.name,
      code: crop.code,
      name: crop.name,
    });
    for (const parcel of crop.parcels) {
      const parcelKey = `${key}|${parcel.name}`;
      const parcelId = oldParcels.get(parcelKey) ?? (await takeId('AgriParcel'));
      oldParcels.set(parcelKey, parcelId);
      for (const s of parcel.sigpac) {
        const old = oldIdcps.get(`${key}|${sigpacCode(s)}`);
        idcps.push({
          idcp: old?.idcp ?? (await takeId('idcp')),
          crop: cropIdx,
          parcelId,
          parcelName: parcel.name,
          ...pickSigpac(s),
          dimension: s.dimension,
          ...(s.dgc ? { dgc: s.dgc } : {}),
          ...(s.cropArea ? { area: s.cropArea } : {}),
        });
        if (s.nitrateVulnerable) vulnerable.add(sigpacCode(s));
      }
    }
  }
  // A zone is designated over land, not crops: an enclosure named under several crops is vulnerable under each of them
  // when any of its rows says so (docs/backoffice-dataset.md).
  for (const entry of idcps) if (vulnerable.has(sigpacCode(entry))) entry.nitrateVulnerable = true;
  return { meta, crops, idcps };
}
