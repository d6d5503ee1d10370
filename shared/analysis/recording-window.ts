import { BackdateWindow } from '../domain/backdate-window';

/**
 * RD 1051/2022, art. 4.1: every entry of the farm notebook, the soil data of art. 5.b among them, within "un plazo no
 * superior a un mes", counted here from the day the sample was taken (a report arrives within days of it). It is the
 * law's, not an operators' setting.
 */
export const ANALYSIS_RECORDING_WINDOW: BackdateWindow = {
  span: { months: 1 },
  label: 'one month (RD 1051/2022, art. 4.1)',
};
