import { HttpResponseInit } from '@azure/functions';
import { DomainError, violation } from '../shared/domain/errors';
import { problemResponse } from '../shared/http/problem';

/**
 * The answer to a method and path no operation serves: word for word what API Management answers for an unknown
 * operation (infra/policies/global.xml, `OperationNotFound`), so a client sees one 404 whichever refused the call.
 */
export function notFound(): HttpResponseInit {
  return problemResponse(
    new DomainError('No operation of the API matches this method and path.', [
      violation('NOT_FOUND', '', 'see the OpenAPI document for the paths and methods served'),
    ]),
  );
}
