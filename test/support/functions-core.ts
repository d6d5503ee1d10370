import { FunctionsCoreHost } from '../../local/functions-core/core-api';

/**
 * Tests import function files for their exported handlers, which also register themselves with `app.*`: outside a
 * worker, `@azure/functions` would fall back to a "test mode" that warns on every registration. The runner's
 * functions-core stand-in takes the registrations instead (test files that drive the stand-in mock it themselves).
 */
jest.mock('@azure/functions-core', () => new FunctionsCoreHost().module, { virtual: true });
