import { Catalogues } from '../catalog/siex-codes/catalogues';

/**
 * The SIEX catalogues of treated seed alone, as FEGA publishes them (Anexo VII): the app hands them to the catalogue
 * code with every other (shared/app/siex-catalogues.ts). TIPO_TRATAMIENTO says where the seed was treated: on the
 * farm (2), at a conditioning centre (3), or bought treated in Spain (4) or abroad (5); there is no code 1.
 */
export const TREATED_SEED_CATALOGUES = {
  TIPO_TRATAMIENTO: { file: 'TIPO_TRATAMIENTO.csv', name: 'Descripción' },
} as const satisfies Catalogues;
