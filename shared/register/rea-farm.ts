import type { Farm } from '../farms/farm';
import type { HoldingResponse } from '../siex/iuws-protocol';

/**
 * A holding as SIEX's REA gives it (`exportarREA`, the simulator's shape: shared/siex/iuws-protocol.ts) as a farm of
 * the back-office dataset (docs/backoffice-dataset.md): what onboarding and the campaign rollover load
 * (`npm run admin -- import-rea`). Pure; the command reads SIEX and writes the farm.
 */

/** What the REA does not say of a farm, kept from the farm campaign already loaded when there is one. */
export interface KeptFarmFields {
  description?: string;
  sustainableInputs?: boolean;
}

/** Hectares as the dataset writes them: a decimal string of at most `decimals` places, no exponent, no trailing 0. */
function hectares(value: number, decimals: number): string {
  return value.toFixed(decimals).replace(/\.?0+$/, '');
}

type Unit = HoldingResponse['UnidadesProduccion'][number];
type Enclosure = Unit['Recintos'][number];

function enclosure(r: Enclosure): Farm['crops'][number]['parcels'][number]['sigpac'][number] {
  return {
    prov: r.Provincia,
    town: r.Municipio,
    aggr: String(r.Agregado),
    zone: String(r.Zona),
    pol: String(r.Poligono),
    parc: String(r.Parcela),
    enc: String(r.Recinto),
    dimension: hectares(r.Superficie, 4),
    // The REA DGC's area has two decimals (the dataset's rule); a crop area of 0.00 ha is no area.
    ...(r.SuperficieCultivo !== undefined && r.SuperficieCultivo >= 0.005
      ? { cropArea: hectares(r.SuperficieCultivo, 2) }
      : {}),
    ...(r.CodigoDGC !== undefined ? { dgc: String(r.CodigoDGC) } : {}),
    ...(r.ZonaVulnerable ? { nitrateVulnerable: true } : {}),
  };
}

/**
 * The farm `rea` (the gateway's REA, which clients' `farms` list) in the holding's campaign: one crop per crop and
 * variety of its production units, in the REA's order, each unit a parcel of its crop.
 */
export function farmOfHolding(holding: HoldingResponse, rea: string, kept: KeptFarmFields = {}): Farm {
  const crops = new Map<string, Farm['crops'][number]>();
  for (const unit of holding.UnidadesProduccion) {
    const key = `${unit.Cultivo.Codigo}~${unit.Variedad.Codigo}`;
    const crop = crops.get(key) ?? {
      typecrop: { id: unit.Cultivo.Codigo, name: unit.Cultivo.Nombre },
      code: unit.Variedad.Codigo,
      name: unit.Variedad.Nombre,
      parcels: [],
    };
    crop.parcels.push({ name: unit.NombreParcela, sigpac: unit.Recintos.map(enclosure) });
    crops.set(key, crop);
  }
  return {
    rea,
    codigoRea: holding.CodigoRea,
    year: holding.Campana,
    name: holding.Nombre,
    description: kept.description ?? '',
    locality: holding.Localidad,
    country: 'ES',
    province: holding.Provincia,
    community: { code: holding.ComunidadAutonoma.Codigo, name: holding.ComunidadAutonoma.Nombre },
    owner: {
      name: holding.Titular.Nombre,
      surname: holding.Titular.Apellidos,
      email: holding.Titular.Email,
      nif: holding.Titular.NIF,
    },
    ...(kept.sustainableInputs !== undefined ? { sustainableInputs: kept.sustainableInputs } : {}),
    crops: [...crops.values()],
  };
}
