// The --expect grammar: METHOD PATH, then HTTPie's request items, to the emulator's request pattern.
import { describe, expect, it } from 'vitest';
import { parseExpectation } from '../../src/parse/expectation.js';

describe('parseExpectation', () => {
  it.each([
    ['POST /monitors', { method: 'POST', path: '/v1/monitors' }],
    ['* /monitors/*', { path: '/v1/monitors/*' }],
    ['get /monitors?limit=5&status=up', { method: 'GET', path: '/v1/monitors', query: { limit: '5', status: 'up' } }],
    ['POST /monitors name=api', { method: 'POST', path: '/v1/monitors', body: { name: 'api' } }],
    [
      'POST /monitors n:=60 p:=true t:=null',
      { method: 'POST', path: '/v1/monitors', body: { n: 60, p: true, t: null } },
    ],
    [
      `POST /monitors 'name=my api' tags:='["a", "b"]'`,
      { method: 'POST', path: '/v1/monitors', body: { name: 'my api', tags: ['a', 'b'] } },
    ],
    // The first separator wins, the longer where two start together (HTTPie's rule).
    ['GET /x limit==5', { method: 'GET', path: '/v1/x', query: { limit: '5' } }],
    ['GET /x X-Note:a=b', { method: 'GET', path: '/v1/x', headers: { 'x-note': 'a=b' } }],
    ['GET /x url=http://h', { method: 'GET', path: '/v1/x', body: { url: 'http://h' } }],
    [
      '  PATCH   /monitors/mon_1   paused:=false ',
      { method: 'PATCH', path: '/v1/monitors/mon_1', body: { paused: false } },
    ],
  ])('%s', (text, pattern) => {
    expect(parseExpectation(text, '/v1')).toEqual(pattern);
  });

  it('the path is under the base URL path, whatever its trailing slash', () => {
    expect(parseExpectation('GET /monitors', '/').path).toBe('/monitors');
    expect(parseExpectation('GET /monitors', '/api/v1/').path).toBe('/api/v1/monitors');
  });

  it.each([
    ['', 'give a method and a path'],
    ['POST', 'give a method and a path'],
    ['P0ST /x', '"P0ST" is not a method (or * for any)'],
    ['GET x', 'the path "x" does not start with /'],
    ['GET /x name', '"name" is not an item'],
    ['GET /x =v', '"=v" is not an item'],
    ['GET /x a=1 a=2', 'a is given twice'],
    ['GET /x?a=1 a==2', 'a is given twice'],
    ['GET /x a:={', 'the value of a:= is not JSON: {'],
    ['GET /x "a=1', 'a " is not closed'],
  ])('%j is refused: %s', (text, why) => {
    expect(() => parseExpectation(text, '/v1')).toThrow(
      `--expect ${JSON.stringify(text)}: ${why}; expected METHOD PATH [field=text field:=json name==value Header:value ...]`,
    );
  });
});
