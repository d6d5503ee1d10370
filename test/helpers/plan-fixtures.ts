type Body = Record<string, unknown>;

/**
 * The campaign's fertilization plan of a vine location (idcp 102 of the unit tests' farm), drawn up with a digital tool
 * on 13-05-2026 after vine: 8,000 kg of grapes a hectare.
 */
export function planBody(o: Body = {}): Body {
  return {
    type: 'AgriFertilizationPlan',
    date: '13-05-2026',
    idcp: ['102'],
    needs: { n: 60, p2o5: 30, k2o: 90 },
    yieldTarget: 8000,
    previousCrop: { type: 'TypeCrop', id: '102', name: 'VIÑA' },
    tool: true,
    ...o,
  };
}

/** A compound mineral fertilizer, NPK 15-15-15 at 200 kg/ha (MAT_FERTI 14, nutrients by its label). */
export const NPK_15_15_15 = {
  type: 'TypeFertilizerMaterial',
  id: '14',
  name: 'Productos fertilizantes: abonos inorgánicos',
  nutrients: [
    { id: '1', percent: 15 },
    { id: '6', percent: 15 },
    { id: '9', percent: 15 },
  ],
};
