// A stand-in for the model's API (OpenAI chat completions, streamed or not) on 127.0.0.1:
// the first answer of a conversation calls the tool its prompt names, the next one ends it.
import { createServer } from 'node:http';

function reply(parsed) {
  const messages = parsed.messages ?? [];
  // A request without tools (compaction's summary) is answered with text.
  if (!parsed.tools?.length) return { text: 'Summary: the user asked for work; it was done.' };
  if (messages.some((m) => m.role === 'tool')) return { text: 'done' };
  const asked = JSON.stringify(messages.filter((m) => m.role === 'user'));
  if (asked.includes('please deploy')) return { tool: 'exec', args: { command: 'deploy prod' } };
  if (asked.includes('please spawn')) return { tool: 'sessions_spawn', args: { task: 'say hi', label: 'helper' } };
  return { text: 'ok' };
}

export function startModel() {
  let n = 0;
  const requests = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      n += 1;
      let parsed = {};
      try {
        parsed = JSON.parse(body);
      } catch {
        // Not JSON: answered with text.
      }
      requests.push(parsed);
      const r = reply(parsed);
      const call = r.tool && { id: `call_${n}`, type: 'function', function: { name: r.tool, arguments: JSON.stringify(r.args) } };
      const finish = call ? 'tool_calls' : 'stop';
      const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };
      const base = { id: `c${n}`, created: 1, model: parsed.model };
      if (parsed.stream) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const delta = call ? { role: 'assistant', tool_calls: [{ index: 0, ...call }] } : { role: 'assistant', content: r.text };
        res.write(`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`);
        res.write(`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: finish }], usage })}\n\n`);
        res.end('data: [DONE]\n\n');
      } else {
        const message = call ? { role: 'assistant', content: null, tool_calls: [call] } : { role: 'assistant', content: r.text };
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ ...base, object: 'chat.completion', choices: [{ index: 0, message, finish_reason: finish }], usage }));
      }
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, requests, url: `http://127.0.0.1:${server.address().port}/v1` })));
}
