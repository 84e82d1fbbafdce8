// `--assert EXPR` (`cpk reports get`, `cpk monitors get`): a JMESPath
// expression over the JSON result that must be truthy, as JMESPath counts
// truth (false, null, "", [] and {} are false; every number, 0 too, is true).
// A failed assertion says what it saw: for a comparison, the value of each
// side that is not a literal (`uptime_percent is 87.5`); otherwise the value
// of the expression itself.
import { UsageError } from '../core/errors.js';
import { toJson } from './json.js';
import { compileQuery, isQueryNode, type QueryNode as Node } from './query.js';

export interface Assertion {
  expression: string;
  /** `saw`: what the expression saw, for a failure ("uptime_percent is 87.5"). */
  check(value: unknown): { expression: string; ok: boolean; saw: string };
}

/** JMESPath text for the nodes an assertion usually holds (paths, literals, functions); undefined for others. */
function unparse(node: unknown): string | undefined {
  if (!isQueryNode(node)) return undefined;
  const parts = (node.children ?? []).map(unparse);
  const joined = (separator: string) =>
    parts.every((p): p is string => p !== undefined) ? parts.join(separator) : undefined;
  switch (node.type) {
    case 'Field':
      return /^[A-Za-z_][A-Za-z0-9_]*$/.test(node.name ?? '') ? node.name : JSON.stringify(node.name);
    case 'Current':
    case 'Identity':
      return '@';
    case 'Literal':
      return `\`${JSON.stringify(node.value)}\``;
    case 'Index':
      return `[${String(node.value)}]`;
    case 'Subexpression':
      return joined('.');
    case 'IndexExpression':
      return joined('');
    case 'Function': {
      const args = joined(', ');
      return args === undefined ? undefined : `${node.name ?? ''}(${args})`;
    }
    default:
      return undefined;
  }
}

/** The sides worth showing when `node` is false: each non-literal side of a comparison, the operand of a `!`. */
function shown(node: Node): string[] {
  const kids = (node.children ?? []).filter(isQueryNode);
  if (node.type === 'Comparator' || node.type === 'AndExpression' || node.type === 'OrExpression')
    return kids
      .flatMap((kid) => (kid.type === 'Literal' ? [] : kid.type === 'Comparator' ? shown(kid) : [unparse(kid)]))
      .filter((text): text is string => text !== undefined);
  if (node.type === 'NotExpression') return kids.map(unparse).filter((text): text is string => text !== undefined);
  return [];
}

function truthy(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}

/** Compiles every --assert before anything is sent: a bad expression is a usage error (exit 2). */
export async function compileAssertions(expressions: readonly string[]): Promise<Assertion[]> {
  return Promise.all(
    expressions.map(async (expression) => {
      const evaluate = await compileQuery(expression, '--assert');
      const sides = await Promise.all(
        shown(evaluate.ast)
          .filter((text) => text !== expression)
          .map(async (text) => ({ text, evaluate: await compileQuery(text, '--assert') })),
      );
      return {
        expression,
        check(value: unknown) {
          let result: unknown;
          try {
            result = evaluate(value);
          } catch (error) {
            return { expression, ok: false, saw: error instanceof UsageError ? error.message : String(error) };
          }
          const ok = truthy(result);
          const parts = sides.map((s) => {
            let seen: unknown;
            try {
              seen = s.evaluate(value);
            } catch {
              return `${s.text} cannot be read`;
            }
            return `${s.text} is ${toJson(seen ?? null, 0)}`;
          });
          return {
            expression,
            ok,
            saw: parts.length > 0 ? parts.join(', ') : `the expression gave ${toJson(result ?? null, 0)}`,
          };
        },
      };
    }),
  );
}
