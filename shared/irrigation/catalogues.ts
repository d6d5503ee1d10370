import { Catalogues } from '../catalog/siex-codes/catalogues';

/**
 * The SIEX catalogues of irrigation alone (RD 1051/2022 art. 5 and Anexo IX, CUE `Riego`), as FEGA publishes them:
 * the app hands them to the catalogue code with every other (shared/app/siex-catalogues.ts). The irrigation system
 * and the water's origin (SIST_RIEGO, ORIGEN_AGUA_RIEGO) are the catalog's own, since fertigation names them too.
 */
export const IRRIGATION_CATALOGUES = {
  /** The energy that moved the water (`Riego.TipoEnergia`); FEGA heads its code column `Código`. */
  TIPENERGIA: { file: 'TIPENERGIA.csv', name: 'Descripción' },
  /**
   * BUENAS_PRACTICAS_AMBITOS repeats a code once per scope, each row with its own dates: an irrigation may declare
   * only the "Riego" rows (RD 1051/2022 Anexo IX is codes 21 to 27), so only those are read.
   */
  BUENAS_PRACTICAS_RIEGO: {
    file: 'BUENAS_PRACTICAS_AMBITOS.csv',
    name: 'Buenas prácticas',
    scope: { header: 'Ámbito', value: 'Riego' },
  },
} as const satisfies Catalogues;
