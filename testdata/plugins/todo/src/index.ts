// An example third-party plugin, written for dsh-replay's tests from the
// tool contract: a todo_write tool (the same name as a first-party tool, so
// loading it replaces the Go port for the run) and a word_count tool that
// no port knows.
import { defineTool } from '@deepseek-ai/dsh-tools'

export const name = 'tool-todo-example'

interface Todo {
  content: string
  status: 'pending' | 'in_progress' | 'completed'
}

interface Counts {
  pending: number
  inProgress: number
  completed: number
}

const todoWrite = defineTool({
  name: 'todo_write',
  description: 'Update the todo list.',
  parameters: {
    todos: {
      type: 'array',
      description: 'The COMPLETE task list, replacing any previous list.',
      required: true,
      items: {
        type: 'object',
        additionalProperties: false,
        properties: {
          content: { type: 'string', description: 'What the task is — a short imperative line.', required: true },
          status: {
            type: 'string',
            description: 'pending (not started) | in_progress (now) | completed (done).',
            enum: ['pending', 'in_progress', 'completed'],
            required: true,
          },
        },
      },
    },
  },
  output: {
    schema: {
      type: 'object',
      additionalProperties: false,
      properties: {
        todos: {
          type: 'array',
          required: true,
          items: {
            type: 'object',
            additionalProperties: false,
            properties: {
              content: { type: 'string', required: true },
              status: { type: 'string', enum: ['pending', 'in_progress', 'completed'], required: true },
            },
          },
        },
        counts: {
          type: 'object',
          required: true,
          additionalProperties: false,
          properties: {
            pending: { type: 'integer', required: true },
            inProgress: { type: 'integer', required: true },
            completed: { type: 'integer', required: true },
          },
        },
      },
    },
    render: (_args: unknown, value: { todos: Todo[]; counts: Counts }) => [
      {
        type: 'text',
        text: `Updated todo list: ${value.counts.pending} pending, ${value.counts.inProgress} in progress, ${value.counts.completed} completed.`,
      },
    ],
  },
  presentCall: (args: { todos: Todo[] }) => ({
    card: 'generic',
    title: 'Update todo list',
    kind: 'other',
    rawInput: args.todos,
  }),
})

const wordCount = defineTool({
  name: 'word_count',
  description: 'Count the words and lines of a text.',
  parameters: {
    text: { type: 'string', required: true },
    label: { type: 'string' },
  },
  output: {
    schema: {
      type: 'object',
      additionalProperties: false,
      properties: {
        words: { type: 'integer', required: true },
        lines: { type: 'integer', required: true },
      },
    },
    render: (args: { label?: string }, value: { words: number; lines: number }) => [
      { type: 'text', text: `${args.label ?? 'text'}: ${value.words} words, ${value.lines} lines` },
    ],
    presentationMeta: (_args: unknown, value: { words: number; lines: number }) => ({
      words: value.words,
      lines: value.lines,
    }),
  },
  presentCall: (args: { text: string; label?: string }) => ({
    card: 'generic',
    title: `Count words${args.label ? ` in ${args.label}` : ''}`,
    kind: 'read',
  }),
  presentResult: (_args: unknown, result: { isError: boolean; meta?: { words: number; lines: number } }) =>
    result.meta === undefined
      ? undefined
      : { card: 'generic', title: `${result.meta.words} words · ${result.meta.lines} lines` },
})

export function apply(ctx: any, _config: Record<string, unknown>) {
  ctx.tools.register(todoWrite)
  ctx.tools.register(wordCount)
}
