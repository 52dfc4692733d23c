// An example plugin whose render reads the clock: verify reports it impure.
import { defineTool } from '@deepseek-ai/dsh-tools'

export const name = 'tool-stamp-example'

export function apply(ctx) {
  ctx.tools.register(defineTool({
    name: 'stamp',
    parameters: { note: { type: 'string', required: true } },
    output: {
      schema: { type: 'string' },
      render: (args, value) => [{ type: 'text', text: `${value} at ${Date.now()}` }],
    },
    presentCall: (args) => ({ card: 'generic', title: `Stamp ${args.note}`, rawInput: Math.random() }),
  }))
}
