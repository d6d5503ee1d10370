import { IdcpSet, ListIdcpBody } from '../api/farm-schemas';
import { Client } from '../clients/client-store';
import { parseUrn } from '../domain/urn';
import { DomainError, Violation, violation } from '../domain/errors';
import { cropKey, FarmIndex } from './farm-index';
import { FarmReader } from './farm-store';
import { pickSigpac, sigpacCode } from './sigpac';

function farmNotFound(): DomainError {
  return new DomainError('agrifarmId not found or not accessible', [
    violation('AGRIFARM_NOT_FOUND', 'query.agrifarmId', 'agrifarmId not found or not accessible'),
  ]);
}

/** The farm lookup response text; a farm of another client is answered exactly as an unknown one. */
export async function findFarmView(
  farms: Pick<FarmReader, 'lookupView'>,
  client: Client,
  rea: string,
  year: number,
): Promise<string> {
  const view = client.farms.includes(rea) ? await farms.lookupView(rea, year) : null;
  if (view === null) {
    throw new DomainError('No farm with that REA and campaign year.', [
      violation('FARM_NOT_FOUND', 'query.rea', `no farm with REA ${rea} for campaign ${year}`),
    ]);
  }
  return view;
}

/** The farm index behind an agrifarmId, if the caller may see it; 404 otherwise (unknown and foreign alike). */
export async function accessibleFarm(
  farms: Pick<FarmReader, 'index'>,
  client: Client,
  agrifarmId: string,
): Promise<FarmIndex> {
  const id = parseUrn('AgriFarm', agrifarmId);
  const farm = id === null ? null : await farms.index(id);
  if (!farm || !client.farms.includes(farm.meta.rea)) throw farmNotFound();
  return farm;
}

/** Resolves every requested enclosure for the crop; all unknown ones are listed in one 404. */
export function resolveIdcps(farm: FarmIndex, agrifarmId: string, body: ListIdcpBody): IdcpSet {
  const key = cropKey(body.crop.typecrop.id, body.crop.code);
  const enclosures = farm.byCrop.get(key);
  const crop = farm.cropsByKey.get(key);
  if (!enclosures || !crop) {
    throw new DomainError('The crop variety is not grown on the farm.', [
      violation(
        'CROP_NOT_FOUND',
        'body.crop',
        `no crop ${body.crop.typecrop.id} variety ${body.crop.code} on the farm`,
      ),
    ]);
  }
  const missing: Violation[] = [];
  const idcp: IdcpSet['idcp'] = [];
  body.regionalAttributes.forEach((ra, i) =>
    ra.sigpac.forEach((s, j) => {
      const entry = enclosures.get(sigpacCode(s));
      if (!entry) {
        missing.push(
          violation(
            'ENCLOSURE_NOT_FOUND',
            `body.regionalAttributes[${i}].sigpac[${j}]`,
            `enclosure ${sigpacCode(s)} has no such crop on the farm`,
          ),
        );
      } else {
        idcp.push({ idcp: entry.idcp, ...pickSigpac(entry) });
      }
    }),
  );
  if (missing.length > 0) throw new DomainError("Some enclosures are not the farm's for this crop.", missing);
  return {
    agrifarmId,
    crop: { typecrop: { id: crop.typecropId, name: crop.typecropName }, code: crop.code, name: crop.name },
    idcp,
  };
}
