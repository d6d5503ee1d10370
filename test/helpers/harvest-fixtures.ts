import { FarmIndex } from '../../shared/farms/farm-index';
import { farmIndexDoc } from './phyto-fixtures';

/**
 * Pure builders for the harvest tests: the phyto tests' farm (vine 102 on idcps 101 to 103, olive 101 on 201, wheat 1
 * on 301), each enclosure with its DGC code, and a harvest of wine grapes on 14-05-2026 (Madrid), valid as built.
 */
export function harvestFarm(): FarmIndex {
  const doc = farmIndexDoc();
  doc.idcps = doc.idcps.map((e) => ({ ...e, dgc: String(4600000000 + e.idcp) }));
  return new FarmIndex(doc);
}

type Body = Record<string, unknown>;

/** 9.5 t of wine grapes (PROD_VEGETAL 210, crop 102 VIÑA) from the first vine enclosure, for the co-operative's winery. */
export function grapesBody(o: Body = {}): Body {
  return {
    type: 'AgriHarvest',
    dateStart: '14-05-2026',
    idcp: ['101'],
    quantity: 9500,
    measure: { type: 'Measure', name: 'Kilogramo', symbol: 'kg', code: 5 },
    product: { type: 'TypePlantProduct', id: '210', name: 'Uvas de vinificación' },
    purpose: [{ type: 'TypeHarvestPurpose', id: '1', name: 'Entregada a bodega cooperativa' }],
    residue: [{ type: 'TypeResidueDestination', id: '1' }],
    ...o,
  };
}

/** A grape harvester of 120 CV on diesel, two passes, nine hours. */
export const HARVESTER = {
  type: 'HarvestMachine',
  id: '070506011',
  name: 'Vendimiadora autopropulsada',
  power: 120,
  powerMeasure: { type: 'Measure', name: 'CV', symbol: 'CV', code: 40 },
  energy: { type: 'TypeEnergy', id: '2', name: 'DIESEL' },
  passes: 2,
  hours: 9,
};
