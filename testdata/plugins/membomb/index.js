// An example plugin whose render doubles a string until memory runs out.
import { defineTool } from '@deepseek-ai/dsh-tools'

export const name = 'tool-membomb-example'

export function apply(ctx) {
  ctx.tools.register(defineTool({
    name: 'spin',
    parameters: {},
    output: {
      schema: { type: 'json' },
      render: () => { let s = 'ab'; for (;;) { s = s + s } },
    },
  }))
}
