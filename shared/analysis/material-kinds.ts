/** MATERIAL_ANALIZADO codes the rules read. */
export const MATERIAL = { crop: 1, harvested: 2, soil: 3, water: 4 } as const;
/** TIPO_ANALISIS 1, "Residuos de sustancias activas fitosanitarias": the one whose substances are named. */
export const RESIDUES = 1;
