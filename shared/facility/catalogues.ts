import { Catalogues } from '../catalog/siex-codes/catalogues';

/**
 * The SIEX catalogues of store treatments alone, as FEGA publishes them (Anexo VII): the app hands them to the
 * catalogue code with every other (shared/app/siex-catalogues.ts). EDIFICACIONES_INSTALACIONES lists each class of
 * building under its group (`Código`, 1-9): the class is `Código SIEX`.
 */
export const FACILITY_CATALOGUES = {
  EDIFICACIONES_INSTALACIONES: {
    file: 'EDIFICACIONES_INSTALACIONES.csv',
    code: 'Código SIEX',
    name: 'Edificación e instalación',
  },
} as const satisfies Catalogues;
