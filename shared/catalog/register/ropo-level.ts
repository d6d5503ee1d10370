import { RopoLevel } from '../../domain/ropo';
import { normalizeName } from '../siex-codes/names';
import { RawProduct } from './raw-schema';
import { textOf } from './fields';

/** The card level a register product requires, and the register's words it was read from (for the import report). */
export interface RegisterLevel {
  level: RopoLevel;
  because: string;
}

/**
 * Formulation codes (CropLife / FAO, the bracketed code of `Formulado`) of products that are gases or generate them:
 * their application is fumigation, reserved to the `fumigador` card (RD 1311/2012, art. 18 and annex IV).
 */
const FUMIGANT_FORMULATIONS = new Set(['GA', 'GE']);

/** Acute toxicity categories 1 to 3 (CLP: fatal or toxic if swallowed, in contact with skin, or inhaled). */
const TOXIC_HAZARDS = /\bh3[013][01]\b|\bt\+|\bmuy toxico|\btoxico\b/;

/**
 * Level words of the register's conditions of use ("Uso reservado a aplicadores con carné de fumigador"), most
 * demanding first: a product whose label asks for a level says so in these texts.
 */
const LEVEL_WORDS: [RegExp, RopoLevel][] = [
  [/\bfumigador/, 'fumigador'],
  [/\bpiloto/, 'piloto'],
  [/\bcualificad[oa]/, 'cualificado'],
  [/\bnivel basico|\bcarne basico|\bcapacitacion basica/, 'basico'],
];

/** Every text of the product and its uses under keys that match, lower case without accents. */
function textsUnder(raw: RawProduct, key: RegExp): string[] {
  const out: string[] = [];
  const visit = (value: unknown, k: string) => {
    if (Array.isArray(value)) for (const v of value) visit(v, k);
    else if (value && typeof value === 'object') for (const [kk, v] of Object.entries(value)) visit(v, kk);
    else if (key.test(k)) {
      const t = normalizeName(textOf(value));
      if (t) out.push(t);
    }
  };
  visit(raw, '');
  return out;
}

/**
 * What the register says about the card its product needs, or undefined when it says nothing. In order: a level named
 * in the conditions of use (`Condicionamiento`, each use's `CondicionamientoEspecifico` and `TipoUsuario`); a gas or
 * gas-generating formulation, or a use applied by fumigation (fumigador); a toxic or very toxic classification,
 * wherever the export carries one (a field named for the classification, hazards or phrases: cualificado); uses stated
 * for professional or non-professional users with none of the above (basico, the card every professional holds).
 */
export function levelFromRegister(raw: RawProduct): RegisterLevel | undefined {
  const conditions = textsUnder(raw, /^(Condicionamiento|CondicionamientoEspecifico|TipoUsuario)$/);
  for (const [words, level] of LEVEL_WORDS) {
    const said = conditions.find((t) => words.test(t));
    if (said) return { level, because: `conditions of use: "${said.slice(0, 80)}"` };
  }
  const formulation = /\[([A-Z]{2})\]/.exec(raw.DATOSPRODUCTO.Formulado)?.[1];
  if (formulation && FUMIGANT_FORMULATIONS.has(formulation)) {
    return { level: 'fumigador', because: `formulation ${formulation} (a gas or gas-generating product)` };
  }
  if (raw.USOS.some((u) => /fumigaci/.test(normalizeName(textOf(u.MetodoAplicacion))))) {
    return { level: 'fumigador', because: 'a use applied by fumigation' };
  }
  const classification = textsUnder(raw, /clasifica|peligr|frase|hazard|pictogram/i).find((t) => TOXIC_HAZARDS.test(t));
  if (classification) return { level: 'cualificado', because: `classified toxic: "${classification.slice(0, 80)}"` };
  const users = raw.USOS.map((u) => normalizeName(textOf(u.TipoUsuario))).filter((t) => /profesional/.test(t));
  if (users.length > 0) return { level: 'basico', because: `uses for ${[...new Set(users)].join(' and ')} users` };
  return undefined;
}
