// One request to the hookgate daemon, bounded by the plugin's own timeout.

// POSTs `body` to the daemon's `path` with the token in `tokenEnv`; the parsed JSON answer.
export async function post(path, body, options, tokenEnv, fetchImpl = globalThis.fetch) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  try {
    const headers = { 'content-type': 'application/json' };
    const token = process.env[tokenEnv];
    if (token) headers.authorization = `Bearer ${token}`;
    const response = await fetchImpl(`${options.url}${path}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
      signal: controller.signal,
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`hookgate answered ${response.status}: ${text.slice(0, 300)}`);
    return JSON.parse(text);
  } catch (error) {
    if (error?.name === 'AbortError') throw new Error(`no answer within ${options.timeoutMs} ms`);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

