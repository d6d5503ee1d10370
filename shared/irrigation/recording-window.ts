import { BackdateWindow } from '../domain/backdate-window';

/**
 * RD 1051/2022, art. 5: the irrigation's doses and dates go in the farm notebook, as the fertilizations do, "en un plazo
 * no superior a un mes" (the decree's month for every entry of its notebook, art. 4.1, as farmers' associations quote
 * it). A gateway that refused a record inside that month would refuse a farmer who is on time; it is the law's, not an
 * operators' setting. Counted from the irrigation's first day.
 */
export const IRRIGATION_RECORDING_WINDOW: BackdateWindow = {
  span: { months: 1 },
  label: 'one month (RD 1051/2022, arts. 4.1 and 5)',
};
