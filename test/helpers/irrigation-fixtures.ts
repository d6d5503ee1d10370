type Body = Record<string, unknown>;

/**
 * Drip irrigation of the first vine enclosures over two days, 35 m3/ha of well water pumped by solar power, read on a
 * meter, with RD 1051/2022 Anexo IX's first good practice (BPR 21).
 */
export function dripBody(o: Body = {}): Body {
  return {
    type: 'AgriIrrigation',
    dateStart: '13-05-2026',
    dateEnd: '14-05-2026',
    idcp: ['102'],
    system: { type: 'TypeIrrigationSystem', id: '6', name: 'Goteo' },
    quantity: 35,
    measure: { type: 'Measure', name: 'm3/ha', symbol: 'm3/ha', code: 19 },
    waterOrigins: [{ type: 'TypeWaterOrigin', id: '2', name: 'Subterránea' }],
    energy: { type: 'TypeEnergy', id: '4', name: 'FOTOVOLTAICA' },
    meter: 'CNT-0457',
    goodPractices: [{ type: 'TypeGoodPractice', id: '21', name: '' }],
    ...o,
  };
}

/** UNIDADES_MEDIDA codes of the water's units the tests use. */
export const WATER_UNITS = {
  m3: { type: 'Measure', name: 'm3', symbol: 'm3', code: 3 },
  litres: { type: 'Measure', name: 'L', symbol: 'L', code: 4 },
  m3PerHa: { type: 'Measure', name: 'm3/ha', symbol: 'm3/ha', code: 19 },
  litresPerM2: { type: 'Measure', name: 'L/m2', symbol: 'L/m2', code: 59 },
  kg: { type: 'Measure', name: 'kg', symbol: 'kg', code: 5 },
} as const;
