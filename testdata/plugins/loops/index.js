// An example plugin whose render never returns.
import { defineTool } from '@deepseek-ai/dsh-tools'

export const name = 'tool-loop-example'

export function apply(ctx) {
  ctx.tools.register(defineTool({
    name: 'spin',
    parameters: {},
    output: {
      schema: { type: 'json' },
      render: () => { for (;;) { /* forever */ } },
    },
  }))
}
