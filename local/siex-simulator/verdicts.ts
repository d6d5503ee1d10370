import { IuwsErrorItem, RecordResult } from '../../shared/siex/iuws-protocol';
import { rejected, Knobs } from './knobs';
import { LocatedBlock } from './notebook';

/**
 * What the simulator answers of each block of an accepted document (server.ts lists the codes), the same for every
 * section: each result named by the block's own IdAjena field, as comprobarEstado answers it.
 */

/** `dd/mm/yyyy` or `dd-mm-yyyy` (as the schema allows) to a comparable yyyymmdd number. */
function dayNumber(value: unknown): number | undefined {
  const m = typeof value === 'string' ? /^(\d{1,2})[/-](\d{1,2})[/-](\d{4})$/.exec(value) : null;
  return m ? Number(m[3]) * 10_000 + Number(m[2]) * 100 + Number(m[1]) : undefined;
}

interface Judged {
  /** The IdAjena field of each section. */
  idAjena: ReadonlyMap<string, string>;
  rejectIds: Knobs['rejectIds'];
  /** Whether SIEX ever accepted this block (a `Borrar` of one it never did is refused). */
  knows: (section: string, id: number) => boolean;
}

/** Each block's result, in the document's order, with the knobs in force now. */
export function blockVerdicts(located: readonly LocatedBlock[], { idAjena, rejectIds, knows }: Judged): RecordResult[] {
  const seen = new Map<string, number>();
  const key = (b: LocatedBlock) => `${b.section}:${b.id}`;
  for (const b of located) seen.set(key(b), (seen.get(key(b)) ?? 0) + 1);
  return located.map((b) => {
    const { section, id, block } = b;
    const field = idAjena.get(section)!;
    const errores: IuwsErrorItem[] = [];
    if (rejected(rejectIds, section, id))
      errores.push({
        codigo: 'SIM_RECHAZADO',
        descripcion: `El simulador rechaza ${section} ${field} ${id} (rejectIds)`,
      });
    if ((seen.get(key(b)) ?? 0) > 1)
      errores.push({
        codigo: 'IDAJENA_DUPLICADO',
        descripcion: `${field} ${id} aparece más de una vez en el documento`,
      });
    const start = dayNumber(block.FechaInicio);
    const end = dayNumber(block.FechaFin);
    if (start !== undefined && end !== undefined && start > end) {
      errores.push({
        codigo: 'FECHAS_INCOHERENTES',
        descripcion: `FechaInicio ${String(block.FechaInicio)} es posterior a FechaFin ${String(block.FechaFin)}`,
      });
    }
    if (block.Borrar === true && !knows(section, id))
      errores.push({
        codigo: `${section.toUpperCase()}_NO_EXISTE`,
        descripcion: `No hay ${section} con ${field} ${id} que borrar`,
      });
    return { [field]: id, resultado: errores.length ? 'ERROR' : 'OK', errores };
  });
}
