// The project's own lint rules, an oxlint JS plugin (.oxlintrc.json, "jsPlugins"): what oxlint's own rules
// cannot say.
const NODE_HTTP = /^node:https?$/;

export default {
  meta: { name: 'cpk' },
  rules: {
    // import() of node:http or node:https builds the module's ES facade, which reads every export; node:http's
    // lazy WebSocket export then loads Node's own undici (~8 MiB, ~15 ms on Node 26). A static import or require
    // does not.
    'no-dynamic-node-http': {
      meta: { type: 'problem', schema: [] },
      // ESLint's plugin form, which oxlint runs as ESLint would: a successor can read it with ESLint's docs.
      create(context) {
        // Most files have no import() at all: nothing to visit in them.
        if (!/\bimport\s*\(/.test(context.sourceCode.text)) return {};
        return {
          ImportExpression(node) {
            if (node.source.type === 'Literal' && NODE_HTTP.test(String(node.source.value)))
              context.report({
                node,
                message:
                  "Import node:http(s) statically, or with require where it must stay lazy: import() loads Node's undici.",
              });
          },
        };
      },
    },
  },
};
