import { UseScope } from '../../domain/use-scope';
import { normalizeName } from '../siex-codes/names';
import { RawUse } from './raw-schema';

/**
 * What a register use treats (`UseScope`), read from its row before its crop is resolved: the crop resolver would
 * read "Patatas" as potato plants, and "Frutos cítricos" as citrus trees.
 *
 * The register has no scope field. Evidence, from rows of the real export (`ProductosAutorizados_*.json` of
 * 30-09-2026 as cut per product by the public repository egoiska/fitoScannerMini, detalle/<number>.json, commit
 * b759322f; the rows are test/unit/register-scope-fixtures.ts):
 * - `MetodoAplicacion` "Ttos. Postcosecha" (DECCO ZOX ES-00477) and "Ttos. Para semillas" (LUMISENA ES-01187, LATITUDE
 *   XL ES-00080) are certain, but most post-harvest and seed rows leave it empty or "Otros (ver condic.)".
 * - `Cultivo` is always there, and names the thing treated: a growing crop by a crop name ("Cítricos", "Patata",
 *   "Cebada"); produce by the product names of the SIEX catalogue PROD_VEGETAL ("Frutos cítricos",
 *   "Patatas", "Granos de cebada"); seed lots as "Simiente de ..." / "Semillas de ..."; premises as "Almacenes",
 *   "Locales y almacenes".
 * - `Agente` ("Enfermedades post-cosecha (hongos)", "Insectos de almacén") and the dose unit ("ml/100 kg de
 *   semillas") confirm; neither is enough alone (PHILABUSTER 24278 names ordinary fungi on "Frutos cítricos").
 * - `Ambito` ("Agrario" / "No Agrario") and `SistemaCultivo` (F, G, I) are not scopes: a seed treatment (ES-00080) and
 *   a cold-store chamber (SMARTFRESH ES-01173) are "No Agrario" like amateur garden sprays.
 *
 * So, in this order, the first that holds:
 * 1. `MetodoAplicacion` "Ttos. Postcosecha": postharvest.
 * 2. `MetodoAplicacion` "Ttos. Para semillas": seed.
 * 3. `Cultivo` "Almacenes" or "Locales y almacenes": facility (K-OBIOL EC 25 25710, PHOSTOXIN PELLET 13115).
 * 4. `Cultivo` is not farm matter (packaging, substrates, quarantine of non-food goods: PROFUME 25402): left out.
 * 5. `Cultivo` is a seed lot ("Simiente de ...", "Semillas de ...", "Simientes") or the dose is per seed mass ("ml/100
 *    kg de semillas", KINTO PLUS ES-00712 on "Cebada"): postharvest when the agent is a store pest or growth
 *    regulation (stored seed: RESTRAIN ES-00885 "Simiente de patatas"), else seed (REDIGO M ES-00362).
 * 6. `Cultivo` is produce (CropResolver.isProduce: CITRASHINE 16232, SMARTFRESH, 1,4SIGHT ES-01178, ACTELLIC
 *    12240): postharvest.
 * 7. `Agente` names post-harvest disease, stored goods or store pests on any other name: postharvest, reported for
 *    review (PHOSTOXIN's "Cacao en grano", "Nuez de cola").
 * 8. Otherwise: field. A post-harvest use the register states only in the product's conditions of use (MAXIM 19684:
 *    drencher on "Naranjo") stays a field use: the register gives it no row of its own.
 */
type ScopeEvidence = 'method' | 'premises' | 'seed-lot' | 'produce' | 'agent' | 'none';

export type ScopeReading = { scope: UseScope; by: ScopeEvidence } | { scope: 'not-farm'; by: 'name' };

const POSTHARVEST_METHOD = 'ttos. postcosecha';
const SEED_METHOD = 'ttos. para semillas';
const PREMISES = new Set(['almacenes', 'locales y almacenes']);
const NOT_FARM = new Set(
  [
    'Envases y embalajes',
    'Sustratos, enmiendas y materiales de acolchado',
    'Tratamientos de cuarentena para productos no destinados al consumo humano ni animal',
  ].map(normalizeName),
);
const SEED_LOT = /^(simiente|semillas) de |^simientes$/;
const PER_SEED = /semilla/;
const STORED_SEED_AGENT = /almacen|reguladores? de crecimiento|inhibicion (de )?brotacion/;
const POSTHARVEST_AGENT = /post-?cosecha|productos recolectados|almacen/;

export function readScope(use: RawUse, produce: (cultivo: string) => boolean): ScopeReading {
  const method = normalizeName(use.MetodoAplicacion);
  const crop = normalizeName(use.Cultivo);
  const agent = normalizeName(use.Agente);
  if (method === POSTHARVEST_METHOD) return { scope: 'postharvest', by: 'method' };
  if (method === SEED_METHOD) return { scope: 'seed', by: 'method' };
  if (PREMISES.has(crop)) return { scope: 'facility', by: 'premises' };
  if (NOT_FARM.has(crop)) return { scope: 'not-farm', by: 'name' };
  if (SEED_LOT.test(crop) || PER_SEED.test(normalizeName(use['Unidad Medida dosis'] || use.UnidadMedidaDosis))) {
    return { scope: STORED_SEED_AGENT.test(agent) ? 'postharvest' : 'seed', by: 'seed-lot' };
  }
  if (produce(use.Cultivo)) return { scope: 'postharvest', by: 'produce' };
  if (POSTHARVEST_AGENT.test(agent)) return { scope: 'postharvest', by: 'agent' };
  return { scope: 'field', by: 'none' };
}
