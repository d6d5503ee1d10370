import { Catalogues } from '../catalog/siex-codes/catalogues';

/**
 * The SIEX catalogues of the field treatment alone (RD 1311/2012 Anexo III; CUE `TratamFito.OtrasActuacionesFito`), as
 * FEGA publishes them: the app hands them to the catalogue code with every other (shared/app/siex-catalogues.ts).
 */
export const PHYTO_CATALOGUES = {
  /** The non-chemical measures (beneficial organisms, traps, pheromones...): `OtrasActuacionesFito.TipoMedida`. */
  TIPO_MEDIDA_FITOSANITARIA: { file: 'TIPO_MEDIDA_FITOSANITARIA.csv', name: 'Tipo de medida fitosanitaria' },
  /**
   * BUENAS_PRACTICAS_AMBITOS repeats a code once per scope, each row with its own dates: a measure may declare only the
   * "Fitosanitario" rows (`OtrasActuacionesFito.BuenasPracticas`), so only those are read.
   */
  BUENAS_PRACTICAS_FITO: {
    file: 'BUENAS_PRACTICAS_AMBITOS.csv',
    name: 'Buenas prácticas',
    scope: { header: 'Ámbito', value: 'Fitosanitario' },
  },
} as const satisfies Catalogues;
