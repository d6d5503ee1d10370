import { Farm } from './farm';
import { FarmView } from '../api/farm-schemas';
import { urn } from '../domain/urn';
import { cropKey, FarmIndexDoc } from './farm-index';
import { pickSigpac, sigpacCode } from './sigpac';

/**
 * Renders the farm lookup response from the back-office data and the ids the index assigned. The farm lookup
 * serves this text as stored, so the work is done once per import instead of once per request.
 */
export function renderFarmView(farm: Farm, index: FarmIndexDoc): FarmView {
  const cropIds = new Map(index.crops.map((c) => [cropKey(c.typecropId, c.code), c]));
  const idcpOf = new Map(index.idcps.map((e) => [`${e.crop}|${sigpacCode(e)}`, e]));
  return {
    id: urn('AgriFarm', index.meta.farmId),
    name: farm.name,
    description: farm.description,
    year: farm.year,
    dateCreated: index.meta.dateCreated,
    address: { addressLocality: farm.locality, addressCountry: farm.country },
    owned: { name: farm.owner.name, surname: farm.owner.surname, email: farm.owner.email, nif: farm.owner.nif },
    agriCrop: farm.crops.map((crop) => {
      const entry = cropIds.get(cropKey(crop.typecrop.id, crop.code))!;
      const cropIdx = index.crops.indexOf(entry);
      return {
        id: urn('AgriCrop', entry.cropId),
        crop: {
          type: 'TypeCropVariety' as const,
          typecrop: { type: 'TypeCrop' as const, id: crop.typecrop.id, name: crop.typecrop.name },
          code: crop.code,
          name: crop.name,
        },
        agriParcel: crop.parcels.map((parcel) => {
          const first = idcpOf.get(`${cropIdx}|${sigpacCode(parcel.sigpac[0]!)}`)!;
          return {
            id: urn('AgriParcel', first.parcelId),
            name: parcel.name,
            sigpac: parcel.sigpac.map((s) => ({
              idcp: idcpOf.get(`${cropIdx}|${sigpacCode(s)}`)!.idcp,
              ...pickSigpac(s),
              dimension: s.dimension,
              ...(s.cropArea ? { cropArea: s.cropArea } : {}),
            })),
          };
        }),
      };
    }),
    regionalAttributes: [
      { rea: farm.rea, address: { province: farm.province, community: { name: farm.community.name } } },
    ],
  };
}
