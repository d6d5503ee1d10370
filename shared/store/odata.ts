import { dataTables } from './azure-sdk';

/**
 * Table Storage filters through @azure/data-tables' own `odata` template, which quotes and escapes every interpolated
 * string, so a value can never close its literal and change the query whatever validation it went through. A filter
 * is only built for a query on a table client, so the SDK is loaded by then.
 */
export function odata(strings: TemplateStringsArray, ...values: unknown[]): string {
  return dataTables().odata(strings, ...values);
}

/** `Field eq 'value'`, escaped. */
export function odataEq(field: string, value: string): string {
  return `${field} ${odata`eq ${value}`}`;
}
