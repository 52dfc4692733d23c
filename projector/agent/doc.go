// Package agent ports the agent-facing tools: subagent and its control tools,
// report, structured_output, workflow, ralph, todo_write, exit_plan_mode,
// goals, ask_user_question, skill, schedule, memory and session-query tools.
package agent
