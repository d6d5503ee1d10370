import { contracts } from '../../shared/app/contracts';

/** Every worked example of the OpenAPI document is something the gateway accepts and answers, by its own schemas. */
describe.each(contracts.map((c) => [c.operationId, c] as const))('the example of %s', (_, c) => {
  it('has path parameters the contract accepts, when its routes have any', () => {
    if (!c.params) expect(c.example.params).toBeUndefined();
    else expect(c.params.safeParse(c.example.params).error).toBeUndefined();
  });

  it('has a query the contract accepts (as a query string carries it)', () => {
    const asText = Object.fromEntries(Object.entries(c.example.query).map(([k, v]) => [k, String(v)]));
    expect(c.query.safeParse(asText).error).toBeUndefined();
  });

  it('has a request body the contract accepts, when the operation takes one', () => {
    if (!c.body) expect(c.example.request).toBeUndefined();
    else expect(c.body.safeParse(c.example.request).error).toBeUndefined();
  });

  it('has an answer the success schema describes (none when the answer has no body)', () => {
    if (!c.success.schema) expect(c.example.response).toBeUndefined();
    else expect(c.success.schema.safeParse(c.example.response).error).toBeUndefined();
  });
});
