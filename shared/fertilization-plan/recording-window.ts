import { BackdateWindow } from '../domain/backdate-window';

/**
 * RD 1051/2022, art. 4.1: every entry of the farm notebook within "un plazo no superior a un mes"; the plan is one
 * (art. 5.a: annexed to the notebook at the start of the campaign), counted here from the day it was drawn up. It is
 * the law's, not an operators' setting.
 */
export const PLAN_RECORDING_WINDOW: BackdateWindow = {
  span: { months: 1 },
  label: 'one month (RD 1051/2022, art. 4.1)',
};
