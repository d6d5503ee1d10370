import { contracts } from '../../shared/http/contracts';

/** Every worked example of the OpenAPI document is something the gateway accepts and answers, by its own schemas. */
describe.each(contracts.map((c) => [c.operationId, c] as const))('the example of %s', (_, c) => {
  it('has a query the contract accepts (as a query string carries it)', () => {
    const asText = Object.fromEntries(Object.entries(c.example.query).map(([k, v]) => [k, String(v)]));
    expect(c.query.safeParse(asText).error).toBeUndefined();
  });

  it('has a request body the contract accepts, when the operation takes one', () => {
    if (!c.body) expect(c.example.request).toBeUndefined();
    else expect(c.body.safeParse(c.example.request).error).toBeUndefined();
  });

  it('has an answer the success schema describes', () => {
    expect(c.success.schema.safeParse(c.example.response).error).toBeUndefined();
  });
});
