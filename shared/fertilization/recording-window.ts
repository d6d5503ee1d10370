import { BackdateWindow } from '../domain/backdate-window';

/**
 * RD 1051/2022, art. 4.1: the farm's holder answers for each operation that brings nutrients or organic matter to the
 * soil being entered in the notebook's "Fertilización" section "en un plazo no superior a un mes" from the day it was
 * done. A gateway that refused a record inside that month would refuse a farmer who is on time, so fertilizations
 * take the decree's month, not the treatments' MAX_BACKDATE_DAYS; it is the law's, not an operators' setting. (The
 * wording is as farmers' associations and the farm press quote the decree, and art. 4.1 the paragraph its final
 * provisions tie to the digital notebook's start. RD 934/2025, BOE-A-2025-21211, the decree's latest amendment, keeps
 * the month, as the fertilizer makers' association AEFA summarises it; the BOE text itself could not be read from here:
 * see the README's decision table.)
 */
export const FERTILIZATION_RECORDING_WINDOW: BackdateWindow = {
  span: { months: 1 },
  label: 'one month (RD 1051/2022, art. 4.1)',
};
