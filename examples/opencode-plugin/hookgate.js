// hookgate for opencode: a plugin that asks `hookgate hook --gateway opencode` before each
// tool call (and after it, and on each user message) and stops the call when the policy
// blocks it. opencode's plugin API has no hook command of its own; this file is one.
//
// Install: `hookgate init opencode` (writes .opencode/plugin/hookgate.js), or copy this file
// into .opencode/plugin/ (project) or ~/.config/opencode/plugin/ (user).
//
// Fails closed: when hookgate cannot be run, exits with anything but an answer, or answers
// something unreadable, the tool call is refused with the reason.
import { spawnSync } from "node:child_process";

// `hookgate init` writes the command here (with the binary's absolute path and a check that
// it exists); otherwise $HOOKGATE_COMMAND, else `hookgate` from PATH.
const DEFAULT_COMMAND = null;
const COMMAND =
  process.env.HOOKGATE_COMMAND ?? DEFAULT_COMMAND ?? "hookgate hook --gateway opencode";
const TIMEOUT_MS = 30_000;

/** Runs the hook command on `payload`; returns {decision, reason, context}. */
function ask(payload) {
  const run = spawnSync("/bin/sh", ["-c", COMMAND], {
    input: JSON.stringify(payload),
    encoding: "utf8",
    timeout: TIMEOUT_MS,
    maxBuffer: 1 << 20,
  });
  if (run.error) {
    return { decision: "block", reason: `hookgate could not be run: ${run.error.message}` };
  }
  const text = (run.stdout ?? "").trim();
  if (text !== "") {
    try {
      const answer = JSON.parse(text);
      if (answer && (answer.decision === "allow" || answer.decision === "block")) {
        return answer;
      }
    } catch {
      // fall through: an unreadable answer blocks
    }
  }
  const why = (run.stderr ?? "").trim() || `hookgate exited with ${run.status} and no answer`;
  return { decision: run.status === 0 ? "allow" : "block", reason: why };
}

export const HookgatePlugin = async ({ client, directory, worktree }) => {
  // A session with a parent is a sub-agent's (opencode's `task` tool).
  const parents = new Map();
  async function parentOf(sessionID) {
    if (!sessionID) return undefined;
    if (parents.has(sessionID)) return parents.get(sessionID);
    let parent;
    try {
      const session = await client.session.get({ path: { id: sessionID } });
      parent = session?.data?.parentID;
    } catch {
      parent = undefined;
    }
    parents.set(sessionID, parent);
    return parent;
  }
  // opencode names the agent in `chat.message` only (1.18.33's `tool.execute.before` input
  // has the tool, session and call ids): remember it per session.
  const agents = new Map();
  const base = async (event, sessionID) => ({
    event,
    sessionID,
    parentSessionID: await parentOf(sessionID),
    directory,
    worktree,
  });

  return {
    "tool.execute.before": async (input, output) => {
      const answer = ask({
        ...(await base("tool.execute.before", input.sessionID)),
        agent: input.agent ?? agents.get(input.sessionID),
        tool: input.tool,
        args: output.args,
      });
      if (answer.decision !== "allow") {
        throw new Error(answer.reason || "Blocked by hookgate policy");
      }
    },
    "tool.execute.after": async (input, output) => {
      ask({
        ...(await base("tool.execute.after", input.sessionID)),
        tool: input.tool,
        output: output?.output,
      });
    },
    "chat.message": async (input, output) => {
      const parts = output?.parts ?? [];
      const prompt = parts
        .filter((p) => p.type === "text")
        .map((p) => p.text)
        .join("\n");
      if (input.agent) agents.set(input.sessionID, input.agent);
      const answer = ask({
        ...(await base("chat.message", input.sessionID)),
        agent: input.agent,
        prompt,
      });
      if (answer.decision !== "allow") {
        throw new Error(answer.reason || "Blocked by hookgate policy");
      }
    },
  };
};
