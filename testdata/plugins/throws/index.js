// An example plugin whose render throws.
import { defineTool } from '@deepseek-ai/dsh-tools'

export const name = 'tool-broken-example'

export function apply(ctx) {
  ctx.tools.register(defineTool({
    name: 'broken',
    parameters: { x: { type: 'number', required: true } },
    output: {
      schema: { type: 'json' },
      render: (args, value) => { throw new Error(`cannot render ${args.x}`) },
    },
  }))
}
