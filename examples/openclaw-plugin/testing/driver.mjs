// Run by Node 24 next to a real OpenClaw gateway: an operator client that sends chat turns
// and, like OpenClaw's Control UI, answers the plugin approvals it is shown.
//
//   node driver.mjs send <wsUrl> <sessionKey> <message> [<decision> | -] <waitMs>
//   node driver.mjs call <wsUrl> <method> <paramsJson>
//
// Prints one JSON line per thing that happened. OPENCLAW_PKG is the openclaw package
// directory; OPENCLAW_GATEWAY_TOKEN the gateway's token.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const { GatewayClient } = await import(pathToFileURL(join(process.env.OPENCLAW_PKG, 'dist/plugin-sdk/gateway-runtime.js')));
const [mode, url, ...args] = process.argv.slice(2);
const say = (x) => console.log(JSON.stringify(x));

let hello;
const ready = new Promise((resolve) => (hello = resolve));
let settled;
const done = new Promise((resolve) => (settled = resolve));
const decision = mode === 'send' && args[2] !== '-' ? args[2] : undefined;
const client = new GatewayClient({
  url,
  token: process.env.OPENCLAW_GATEWAY_TOKEN,
  clientDisplayName: 'hookgate-test-operator',
  mode: 'backend',
  clientName: 'gateway-client',
  // A client that can answer approvals is what gives OpenClaw a route for them.
  caps: ['approvals'],
  scopes: ['operator.read', 'operator.write', 'operator.approvals', 'operator.admin'],
  onHelloOk: () => hello(),
  onConnectError: (e) => say({ connectError: String(e) }),
  onEvent: async (evt) => {
    if (evt.event !== 'plugin.approval.requested' || !decision) return;
    say({ requested: evt.payload });
    say({ resolved: await client.request('plugin.approval.resolve', { id: evt.payload.id, decision }) });
    settled();
  },
});
client.start();
await ready;
try {
  if (mode === 'send') {
    const [sessionKey, message, , waitMs] = args;
    say({ sent: await client.request('chat.send', { sessionKey, message, idempotencyKey: `hg-${Date.now()}-${Math.random()}` }) });
    await Promise.race([decision ? done : new Promise(() => {}), new Promise((r) => setTimeout(r, Number(waitMs)))]);
    // Let the turn finish after the decision.
    await new Promise((r) => setTimeout(r, 3000));
  } else {
    const [method, params] = args;
    say({ called: method, answer: await client.request(method, JSON.parse(params)) });
  }
} catch (error) {
  say({ error: String(error?.message ?? error) });
}
client.stop();
process.exit(0);
