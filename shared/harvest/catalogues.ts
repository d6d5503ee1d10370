import { Catalogues } from '../catalog/siex-codes/catalogues';

/**
 * The SIEX catalogues of harvests alone (CUE `Cosecha`), as FEGA publishes them (Anexo VII): the app hands them to the
 * catalogue code with every other (shared/app/siex-catalogues.ts). PROD_VEGETAL, the produce, is the catalog's own
 * (the products register reads it too).
 */
export const HARVEST_CATALOGUES = {
  DEST_COSECHA: { file: 'DEST_COSECHA.csv', name: 'Declaración de cosecha / producción' },
  DEST_RES_VEG: { file: 'DEST_RES_VEG.csv', name: 'Destino del resto vegetal' },
  TIPENERGIA: { file: 'TIPENERGIA.csv', name: 'Descripción' },
} as const satisfies Catalogues;
