import { DateTime } from 'luxon';
import { Violation, violation } from '../../domain/errors';
import { sameSymbol } from '../../domain/units';
import { SiexCodes } from './siex-codes';

/**
 * Checks the SIEX codes of a request against the official catalogues in force on its day, collecting every
 * violation: a code must exist and not be end-dated on that day (UNKNOWN_SIEX_CODE), and a unit must be written with
 * its own symbol (MEASURE_MISMATCH). Each record kind's code rules name their fields through it.
 */
export class CodeCheck {
  readonly violations: Violation[] = [];

  constructor(
    private readonly codes: SiexCodes,
    private readonly on: DateTime,
    /** How a catalogue is named in messages, where its stored name is not FEGA's file name. */
    private readonly described: Readonly<Record<string, string>> = {},
  ) {}

  /** True when the code is in force; otherwise records why at `path`. */
  code(catalogue: string, code: string | number, path: string): boolean {
    if (this.codes.isValid(catalogue, code, this.on)) return true;
    const name = this.described[catalogue] ?? catalogue;
    this.violations.push(
      violation('UNKNOWN_SIEX_CODE', path, `${code} is not a code of the SIEX catalogue ${name} in force on that date`),
    );
    return false;
  }

  /** A unit (`{ code, symbol }` at `path`): a UNIDADES_MEDIDA code in force, written with its own symbol. */
  measure(measure: { code: number; symbol: string } | undefined, path: string): void {
    if (!measure || !this.code('UNIDADES_MEDIDA', String(measure.code), `${path}.code`)) return;
    const symbol = this.codes.units.get(measure.code)?.symbol ?? '';
    if (!sameSymbol(symbol, measure.symbol))
      this.violations.push(
        violation(
          'MEASURE_MISMATCH',
          `${path}.symbol`,
          `unit code ${measure.code} is ${symbol}, not ${measure.symbol}`,
        ),
      );
  }
}
