import { Catalogues } from '../catalog/siex-codes/catalogues';

/**
 * The SIEX catalogues of analyses alone (RD 1051/2022 arts. 5.b and 6, CUE `Analitica`), as FEGA publishes them: the
 * app hands them to the catalogue code with every other (shared/app/siex-catalogues.ts).
 */
export const ANALYSIS_CATALOGUES = {
  MATERIAL_ANALIZADO: { file: 'MATERIAL_ANALIZADO.csv', name: 'Material analizado' },
  // FEGA's header ends in a space, which the import trims as every header.
  TIPO_ANALISIS: { file: 'TIPO_ANALISIS.csv', name: 'Tipo de análisis' },
  /** The active substances a residue analysis names (`Analitica.TiposSustancias`). */
  SUST_ACTIVAS: { file: 'SUST_ACTIVAS.csv', name: 'Sustancia' },
} as const satisfies Catalogues;
