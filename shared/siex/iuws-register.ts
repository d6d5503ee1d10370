import { Settings } from '../config/settings';
import { Exchange, IuwsError, parseJson } from './iuws-errors';
import { IuwsDeps, iuwsConnection } from './iuws-client';
import {
  CAMPAIGN_PARAM,
  CueSection,
  HoldingResponse,
  holdingResponseSchema,
  ID_AJENA,
  IUWS_PATHS,
  notebookResponseSchema,
} from './iuws-protocol';

/**
 * The port through which the gateway reads what SIEX holds, beside the submission client (iuws-client.ts), through
 * the same session, retries and errors (IuwsError).
 *
 * The operations are named as the register names them: `exportar` (the holding's notebook, every activity, those
 * other notebooks wrote included) and `exportarREA` (the holding as the REA knows it). The names come from FEGA's
 * Anexo VI 3.11.4 (section 3.1) and Galicia's XEAGA integration pages; the shapes of their requests and answers are
 * the SIEX simulator's (iuws-protocol.ts), as FEGA does not publish them.
 *
 *   GET {base}/exportar/{codigoRea}?campana=YYYY      Authorization: Bearer <token>
 *     200  { "CUADERNO": [ { "CodigoRea", "IdCuaderno"?, "ActividadesExplotacion": { "<Section>": [blocks] } } ] }
 *     404  the holding is unknown to SIEX
 *   GET {base}/exportarREA/{codigoRea}?campana=YYYY   Authorization: Bearer <token>
 *     200  the holding (holdingResponseSchema)
 *     404  the holding is unknown to SIEX
 */
export interface SiexRegister {
  /** `exportar`: every block SIEX holds of the holding's campaign, each named by its section and IdAjena. */
  notebook(codigoRea: string, campaign: number, signal?: AbortSignal): Promise<SiexEntry[]>;
  /** `exportarREA`: the holding in a campaign as the REA knows it; null when SIEX does not know the holding. */
  holding(codigoRea: string, campaign: number, signal?: AbortSignal): Promise<HoldingResponse | null>;
}

/** A block SIEX holds: its section, its IdAjena, which notebook wrote it when SIEX says so, and the block itself. */
export interface SiexEntry {
  section: string;
  idAjena: number;
  /** The CUADERNO item's `IdCuaderno` (an integer, here as text): the notebook the block came from, when named. */
  notebook?: string;
  block: Readonly<Record<string, unknown>>;
}

/**
 * A block's IdAjena: the field its section's kind names it by (`sections`), or for a section the gateway writes no
 * kind of, its one top-level integer `IdAjena…` field (as the schema requires one per block).
 */
function entryId(block: Readonly<Record<string, unknown>>, section: string, sections: ReadonlyMap<string, string>) {
  const known = sections.get(section);
  const fields = known ? [known] : Object.keys(block).filter((k) => k.startsWith(ID_AJENA));
  const id = fields.length === 1 ? block[fields[0]!] : undefined;
  if (typeof id !== 'number' || !Number.isSafeInteger(id))
    throw new IuwsError(`SIEX exportar answered a ${section} block without an integer IdAjena`, {
      code: 'SIEX_PROTOCOL',
    });
  return id;
}

function readNotebook(res: Exchange, sections: ReadonlyMap<string, string>): SiexEntry[] {
  const parsed = notebookResponseSchema.safeParse(parseJson(res.text));
  if (!parsed.success)
    throw new IuwsError(
      `SIEX exportar answered ${res.status} with an unexpected body: ${parsed.error.issues[0]?.message}`,
      {
        code: 'SIEX_PROTOCOL',
        status: res.status,
      },
    );
  return parsed.data.CUADERNO.flatMap((item) =>
    Object.entries(item.ActividadesExplotacion).flatMap(([section, blocks]) =>
      blocks.map((block) => ({
        section,
        idAjena: entryId(block, section, sections),
        ...(item.IdCuaderno !== undefined ? { notebook: String(item.IdCuaderno) } : {}),
        block,
      })),
    ),
  );
}

function readHolding(res: Exchange): HoldingResponse {
  const parsed = holdingResponseSchema.safeParse(parseJson(res.text));
  if (!parsed.success)
    throw new IuwsError(
      `SIEX exportarREA answered ${res.status} with an unexpected body: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
      { code: 'SIEX_PROTOCOL', status: res.status },
    );
  return parsed.data;
}

/** The reads, for a gateway whose kinds write `sections` (each section's IdAjena field). */
export function createIuwsRegister(
  settings: Settings,
  sections: readonly CueSection[],
  deps: IuwsDeps = {},
): SiexRegister {
  const { usable, retrying } = iuwsConnection(settings, deps);
  const fields = new Map(sections.map((s) => [s.section, s.idAjena]));
  const read = (operation: string, base: string, codigoRea: string, campaign: number, signal?: AbortSignal) => {
    const path = `${base}/${encodeURIComponent(codigoRea)}?${CAMPAIGN_PARAM}=${campaign}`;
    const s = usable();
    return retrying(operation, () => s.authorised(operation, 'GET', path, {}, undefined, signal), signal);
  };
  return {
    async notebook(codigoRea, campaign, signal) {
      return readNotebook(await read('exportar', IUWS_PATHS.notebook, codigoRea, campaign, signal), fields);
    },
    async holding(codigoRea, campaign, signal) {
      try {
        return readHolding(await read('exportarREA', IUWS_PATHS.holding, codigoRea, campaign, signal));
      } catch (e) {
        if (e instanceof IuwsError && e.status === 404) return null;
        throw e;
      }
    },
  };
}
