/** API Management: the product and tier of each environment, and the API imported from the OpenAPI document. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Node } from 'web-tree-sitter';
import { getProperty, literalValue } from '../bicep';
import {
  MONITOR,
  PRODUCT_PARAM,
  PRODUCTION_TIERS,
  PRODUCTS,
  SUBSCRIPTION_KEY_HEADER,
  SUBSCRIPTION_KEY_QUERY,
} from './contract';
import { Finding, Infra, loadedFile, rel, resourcesOfType } from './model';
import { PARAMETER_FILES } from './parameters';

export function checkApim(infra: Infra): Finding[] {
  const out: Finding[] = [];
  const main = infra.main;
  const productParam = main?.params.get(PRODUCT_PARAM);
  if (!productParam)
    out.push({
      check: 'apim',
      file: 'infra/main.bicep',
      message: `parameter '${PRODUCT_PARAM}' (the product identifier, named after the service + "Product") is missing`,
    });
  else if (
    JSON.stringify([...(productParam.allowed ?? [])].sort()) !== JSON.stringify([PRODUCTS.dev, PRODUCTS.prod].sort())
  )
    out.push({
      check: 'apim',
      file: 'infra/main.bicep',
      message: `'${PRODUCT_PARAM}' must allow exactly ${PRODUCTS.dev} and ${PRODUCTS.prod}`,
    });

  for (const [env, product] of Object.entries(PRODUCTS)) {
    const file = path.join(infra.dir, PARAMETER_FILES[env as 'dev' | 'prod']);
    if (!fs.existsSync(file)) continue;
    let parameters: Record<string, { value?: unknown } | undefined>;
    try {
      parameters = (JSON.parse(fs.readFileSync(file, 'utf8')) as { parameters?: typeof parameters }).parameters ?? {};
    } catch {
      continue; // reported by checkParameterFiles
    }
    const expect = (name: string, ok: (v: unknown) => boolean, what: string) => {
      const value = parameters[name]?.value;
      if (!ok(value))
        out.push({
          check: 'apim',
          file: `infra/${path.basename(file)}`,
          message: `${name} must be ${what}, is ${JSON.stringify(value)}`,
        });
    };
    expect(PRODUCT_PARAM, (v) => v === product, `'${product}'`);
    if (env === 'prod') {
      // Production: a tier with an SLA, the developer portal and gateway logs; zones where the services have them.
      expect('apimSku', (v) => PRODUCTION_TIERS.includes(String(v)), PRODUCTION_TIERS.join(' or '));
      expect('zoneRedundant', (v) => v === true, 'true');
    } else expect('apimSku', (v) => v === 'Consumption', "'Consumption' (development stays cheap)");
  }

  // The availability monitor's product and API are checked by checks/monitoring.ts; these are the clients'.
  const named = (name: string) => (r: { resource: { body?: Node } }) =>
    literalValue(getProperty(r.resource.body, 'name')) !== name;
  const products = resourcesOfType(infra, 'Microsoft.ApiManagement/service/products').filter(named(MONITOR.product));
  if (products.length !== 1)
    out.push({
      check: 'apim',
      file: 'infra',
      message: `expected one API Management product, found ${products.length}`,
    });
  for (const { file, resource } of products) {
    const name = getProperty(resource.body, 'name');
    const param = name?.type === 'identifier' ? file.params.get(name.text) : undefined;
    if (
      !param ||
      JSON.stringify([...(param.allowed ?? [])].sort()) !== JSON.stringify([PRODUCTS.dev, PRODUCTS.prod].sort())
    )
      out.push({
        check: 'apim',
        file: rel(infra, file.file),
        message: `product ${resource.symbol}: its name must be a parameter allowing ${PRODUCTS.dev} and ${PRODUCTS.prod}`,
      });
    if (literalValue(getProperty(resource.body, 'properties', 'subscriptionRequired')) !== true)
      out.push({
        check: 'apim',
        file: rel(infra, file.file),
        message: `product ${resource.symbol}: subscriptionRequired must be true`,
      });
  }

  const apis = resourcesOfType(infra, 'Microsoft.ApiManagement/service/apis').filter(named(MONITOR.api));
  if (apis.length !== 1) out.push({ check: 'apim', file: 'infra', message: `expected one API, found ${apis.length}` });
  for (const { file, resource } of apis) {
    const f = rel(infra, file.file);
    const props = getProperty(resource.body, 'properties');
    if (literalValue(getProperty(props, 'subscriptionRequired')) !== true)
      out.push({ check: 'apim', file: f, message: 'the API must require a subscription' });
    const keyNames = literalValue(getProperty(props, 'subscriptionKeyParameterNames'));
    if (JSON.stringify(keyNames) !== JSON.stringify({ header: SUBSCRIPTION_KEY_HEADER, query: SUBSCRIPTION_KEY_QUERY }))
      out.push({
        check: 'apim',
        file: f,
        message: `subscriptionKeyParameterNames must be { header: '${SUBSCRIPTION_KEY_HEADER}', query: '${SUBSCRIPTION_KEY_QUERY}' }`,
      });
    if (literalValue(getProperty(props, 'format')) !== 'openapi+json')
      out.push({ check: 'apim', file: f, message: "the API is imported with format 'openapi+json'" });
    const loaded = loadedFile(file, getProperty(props, 'value'));
    if (loaded !== path.resolve(infra.dir, 'openapi.json'))
      out.push({ check: 'apim', file: f, message: "the API's value must be the content of infra/openapi.json" });
    const linked = resourcesOfType(infra, 'Microsoft.ApiManagement/service/products/apis').some(({ resource: link }) =>
      new RegExp(`^${resource.symbol}\\.name$|^'${String(literalValue(getProperty(resource.body, 'name')))}'$`).test(
        getProperty(link.body, 'name')?.text ?? '',
      ),
    );
    if (!linked)
      out.push({ check: 'apim', file: f, message: `the API ${resource.symbol} is not added to the product` });
  }

  return out;
}
