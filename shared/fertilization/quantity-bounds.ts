import { Violation, violation } from '../domain/errors';
import { cueMax } from '../siex/cue-descriptor';
import { FERTILIZACION_FIELDS } from './cue-fields';
import { Fertilization } from './fertilization';

const F = 'CUADERNO.ActividadesExplotacion.Fertilizacion';

/**
 * Every quantity a fertilization states must fit the CUE field SIEX takes it in (FEGA's field descriptor, through
 * cue-fields.ts): the dose and the fertigation's N and P doses as number(8,3), at most 99,999.999 of their unit, the
 * fertigation's water as number(8,2). A record past them could never be exported, and its nitrogen, counted on the
 * enclosure's manure total, could push that total past what a number holds exactly (a dose of 1e13 kg/ha did). The
 * message states the limit and its source.
 */
export function quantityBounds(f: Fertilization): Violation[] {
  const out: Violation[] = [];
  const check = (value: number | null, unit: string, path: string, field: keyof typeof FERTILIZACION_FIELDS) => {
    if (value === null) return;
    const { max, format } = cueMax(FERTILIZACION_FIELDS, field);
    if (value > max)
      out.push(
        violation(
          'QUANTITY_OUT_OF_BOUNDS',
          path,
          `${value} ${unit} is more than ${max}, the most SIEX's ${field.slice(field.lastIndexOf('.') + 1)} holds ` +
            `(${format}, FEGA's CUE field descriptor)`,
        ),
      );
  };
  check(f.dose, f.unit.symbol, 'body.dose', `${F}.AplicacionMaterialFertilizante.Dosis`);
  const g = f.fertigation;
  if (g) {
    check(g.quantity, g.unit.symbol, 'body.fertigation.quantity', `${F}.Fertirrigacion.Cantidad`);
    check(g.nDose, g.nUnit.symbol, 'body.fertigation.nDose', `${F}.Fertirrigacion.DosisN`);
    check(g.pDose, g.pUnit.symbol, 'body.fertigation.pDose', `${F}.Fertirrigacion.DosisP`);
  }
  return out;
}
