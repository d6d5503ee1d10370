/**
 * OData string literals for Table Storage filters: a quote is doubled, so a value can never close the literal and
 * change the query, whatever validation it went through before reaching here.
 */
export function odataString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/** `Field eq 'value'`, escaped. */
export function odataEq(field: string, value: string): string {
  return `${field} eq ${odataString(value)}`;
}
