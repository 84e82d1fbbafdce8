// A service document for tests of paging: the one list, declared with the cursor
// extension cpk follows, and nothing else.

/** A document that declares `GET /monitors` as a cursor-paged list, and nothing else. */
export const CURSOR_PAGED_MONITORS = {
  openapi: '3.1.0',
  paths: {
    '/monitors': {
      get: {
        parameters: [{ name: 'cursor', in: 'query', schema: { type: 'string' } }],
        'x-pagination': { style: 'cursor', cursorParam: 'cursor', nextField: 'next_cursor', itemsField: 'data' },
        responses: {
          '200': { description: 'a page', content: { 'application/json': { schema: { type: 'object' } } } },
        },
      },
    },
  },
};
