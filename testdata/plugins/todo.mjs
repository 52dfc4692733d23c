// Built from todo/src/index.ts with esbuild (bundle, ESM, @deepseek-harness/* external).
// testdata/plugins/todo/src/index.ts
import { defineTool } from "@deepseek-ai/dsh-tools";
var name = "tool-todo-example";
var todoWrite = defineTool({
  name: "todo_write",
  description: "Update the todo list.",
  parameters: {
    todos: {
      type: "array",
      description: "The COMPLETE task list, replacing any previous list.",
      required: true,
      items: {
        type: "object",
        additionalProperties: false,
        properties: {
          content: { type: "string", description: "What the task is \u2014 a short imperative line.", required: true },
          status: {
            type: "string",
            description: "pending (not started) | in_progress (now) | completed (done).",
            enum: ["pending", "in_progress", "completed"],
            required: true
          }
        }
      }
    }
  },
  output: {
    schema: {
      type: "object",
      additionalProperties: false,
      properties: {
        todos: {
          type: "array",
          required: true,
          items: {
            type: "object",
            additionalProperties: false,
            properties: {
              content: { type: "string", required: true },
              status: { type: "string", enum: ["pending", "in_progress", "completed"], required: true }
            }
          }
        },
        counts: {
          type: "object",
          required: true,
          additionalProperties: false,
          properties: {
            pending: { type: "integer", required: true },
            inProgress: { type: "integer", required: true },
            completed: { type: "integer", required: true }
          }
        }
      }
    },
    render: (_args, value) => [
      {
        type: "text",
        text: `Updated todo list: ${value.counts.pending} pending, ${value.counts.inProgress} in progress, ${value.counts.completed} completed.`
      }
    ]
  },
  presentCall: (args) => ({
    card: "generic",
    title: "Update todo list",
    kind: "other",
    rawInput: args.todos
  })
});
var wordCount = defineTool({
  name: "word_count",
  description: "Count the words and lines of a text.",
  parameters: {
    text: { type: "string", required: true },
    label: { type: "string" }
  },
  output: {
    schema: {
      type: "object",
      additionalProperties: false,
      properties: {
        words: { type: "integer", required: true },
        lines: { type: "integer", required: true }
      }
    },
    render: (args, value) => [
      { type: "text", text: `${args.label ?? "text"}: ${value.words} words, ${value.lines} lines` }
    ],
    presentationMeta: (_args, value) => ({
      words: value.words,
      lines: value.lines
    })
  },
  presentCall: (args) => ({
    card: "generic",
    title: `Count words${args.label ? ` in ${args.label}` : ""}`,
    kind: "read"
  }),
  presentResult: (_args, result) => result.meta === void 0 ? void 0 : { card: "generic", title: `${result.meta.words} words \xB7 ${result.meta.lines} lines` }
});
function apply(ctx, _config) {
  ctx.tools.register(todoWrite);
  ctx.tools.register(wordCount);
}
export {
  apply,
  name
};
