-- wrk script for the daemon load figures in docs/performance.md:
--   wrk -t1 -c8 -d8s --latency -s benches/wrk-evaluate.lua http://127.0.0.1:18790/v1/evaluate
-- Alternates a call the default HOOKS.yaml blocks and one it allows.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local bodies = {
 '{"point":"turn:tool:pre","context":{"sessionKey":"agent:main:main","toolName":"exec","toolArgs":{"command":"rm -rf /"}}}',
 '{"point":"turn:tool:pre","context":{"sessionKey":"agent:main:main","toolName":"exec","toolArgs":{"command":"ls -la"}}}',
}
local i = 0
request = function()
  i = i + 1
  return wrk.format(nil, nil, nil, bodies[(i % 2) + 1])
end
