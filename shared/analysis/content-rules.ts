import { Violation, violation } from '../domain/errors';
import { isValidNif } from '../domain/nif';
import { Analysis } from './analysis';
import { MATERIAL, RESIDUES } from './material-kinds';

/**
 * What an analysis must hold for what it analysed:
 * - the crop locations sampled, except for irrigation water, which is the farm's and no location's (RD 1051/2022
 *   art. 5.b ties soil data to the enclosures; the CUE's `DGCs` of `Analitica` are optional);
 * - soil parameters only on a soil analysis (MATERIAL_ANALIZADO 3), the CUE's `ParametrosSuelo`;
 * - substances only on a residue analysis (TIPO_ANALISIS 1), as RD 1311/2012 art. 16.3 keeps residue results;
 * - the laboratory's NIF a valid one, a company's or a person's (checked as every NIF of the gateway).
 */
export function contentRules(a: Analysis): Violation[] {
  const out: Violation[] = [];
  if (a.idcp.length === 0 && a.material !== MATERIAL.water)
    out.push(violation('REQUIRED', 'body.idcp', 'the crop locations sampled: only a water analysis may name none'));
  if (a.soil !== null && a.material !== MATERIAL.soil)
    out.push(violation('INVALID_VALUE', 'body.soil', 'soil parameters belong to a soil analysis (material 3)'));
  if (a.substances.length > 0 && !a.analyses.includes(RESIDUES))
    out.push(violation('INVALID_VALUE', 'body.substances', 'substances are named by a residue analysis (analyses: 1)'));
  if (a.laboratory && !isValidNif(a.laboratory.nif))
    out.push(
      violation('NIF_INVALID', 'body.laboratory.nif', `${a.laboratory.nif} is not a valid NIF (control character)`),
    );
  return out;
}
