// --query: a JMESPath expression (the AWS and Azure CLIs' --query) applied to
// a command's JSON result. jmespath is imported only when --query is given.
import { UsageError } from '../core/errors.js';

// The functions of the JMESPath specification, so that a misspelt function is
// a usage error before anything is sent (jmespath itself finds out only when
// it evaluates the expression, after the request).
const FUNCTIONS = new Set(
  (
    'abs avg ceil contains ends_with floor join keys length map max max_by merge min min_by not_null ' +
    'reverse sort sort_by starts_with sum to_array to_number to_string type values'
  ).split(' '),
);

/** A node of jmespath's syntax tree, as far as cpk reads it. A slice's children are numbers or null. */
export interface QueryNode {
  type?: string;
  name?: string;
  value?: unknown;
  children?: unknown[];
}

export function isQueryNode(value: unknown): value is QueryNode {
  return typeof value === 'object' && value !== null;
}

function unknownFunction(node: QueryNode): string | undefined {
  if (node.type === 'Function' && typeof node.name === 'string' && !FUNCTIONS.has(node.name)) return node.name;
  for (const child of node.children ?? []) {
    const found = isQueryNode(child) ? unknownFunction(child) : undefined;
    if (found) return found;
  }
  return undefined;
}

/** An expression ready to apply, with its syntax tree (what --assert shows of a failure is read from it). */
export type Query = ((value: unknown) => unknown) & { ast: QueryNode; expression: string };

interface JmesPath {
  compile(expression: string): unknown;
  search(data: unknown, expression: string): unknown;
}

/** Checks `expression` and returns the function that applies it (usage errors on a bad one). */
export async function compileQuery(expression: string, flag = '--query'): Promise<Query> {
  const jmespath = (await import('jmespath')) as unknown as JmesPath;
  if (expression.trim() === '') throw new UsageError(`${flag} must not be empty`);
  let ast: unknown;
  try {
    ast = jmespath.compile(expression);
  } catch (error) {
    throw new UsageError(`invalid ${flag} "${expression}": ${(error as Error).message}; nothing was sent`);
  }
  const fn = unknownFunction(ast as QueryNode);
  if (fn) throw new UsageError(`invalid ${flag} "${expression}": unknown function ${fn}(); nothing was sent`);
  const query = (value: unknown) => {
    try {
      return jmespath.search(value, expression);
    } catch (error) {
      throw new UsageError(`${flag} "${expression}" cannot be applied to the result: ${(error as Error).message}`);
    }
  };
  return Object.assign(query, { ast: ast as QueryNode, expression });
}
