// hookgate console: pending approvals, grants, recent decisions and the policy's status,
// from the daemon's own API.
//
// Safety rules of this file:
// - Data only ever reaches the page as text: the DOM is built with createElement and
//   textContent (through `el` below), never by parsing markup, so a command such as
//   `<img src=x onerror=...>` is shown, not run. The CSP would stop inline code anyway.
// - A typed token lives in sessionStorage (this tab only) and travels only in the Authorization
//   header of same-origin fetches; never in a URL, a cookie or the DOM. A session opened with
//   the one-time login link that `hookgate serve` prints is an HttpOnly, SameSite=Strict
//   cookie this script never sees; fetches send it because they are same-origin.
// - Whenever the daemon answers 401, every piece of data is removed from the page before
//   the sign-in form shows.
//
// Live updates are polled, once a second. EventSource cannot send an Authorization header
// and a token in a query string ends up in logs and history. Long-polling would hold a
// connection and a task per open tab and need change notifications in the daemon; a poll
// is four cheap snapshot reads (a few hundred bytes each once the lists are known) and needs
// no server state, so a restarted daemon or a dropped connection heals on the next tick.
// Polls pause while the tab is hidden and never overlap.
'use strict';

(() => {
  const TOKEN_KEY = 'hookgate.token';
  const POLL_MS = 1000;
  const MAX_ROWS = 200;
  const LABELS = {
    approve: 'Approve',
    deny: 'Deny',
    approve_session: 'Approve for session',
    approve_always: 'Always approve',
  };
  const VERDICTS = new Set(['allow', 'block', 'ask']);
  const RISKS = new Set(['low', 'medium', 'high', 'critical']);

  const $ = (id) => document.getElementById(id);
  let token = sessionStorage.getItem(TOKEN_KEY);
  // Bumped on sign-in and sign-out: answers to an older generation are dropped unseen.
  let generation = 0;
  let timer = null;
  let polling = false;
  let again = false;
  let filter = '';
  let lastSeq = 0;
  let grantsKey = '';
  let statusKey = '';
  const cards = new Map();

  class Unauthorized extends Error {}

  // Without a typed token, a local viewer reads but may lack the role an action needs (the
  // daemon names it, and the login link): that is said where the action was, and the page
  // stays. With a token, a 401 means the token is gone.
  const refusedHere = (e) => !token && e.message;

  // One API call. Throws Unauthorized (with the daemon's message) on 401; otherwise returns
  // {ok, status, data}.
  async function api(method, path, body) {
    const headers = {};
    if (token) headers.Authorization = `Bearer ${token}`;
    const init = { method, headers, cache: 'no-store', credentials: 'same-origin', redirect: 'error' };
    if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    const res = await fetch(path, init);
    if (res.status === 401) {
      let message = '';
      try {
        message = (await res.json())?.error?.message ?? '';
      } catch {
        // No JSON: no message.
      }
      throw new Unauthorized(message);
    }
    let data = null;
    try {
      data = await res.json();
    } catch {
      // Not JSON: reported through `ok` and `status`.
    }
    return { ok: res.ok, status: res.status, data };
  }

  // Control characters (but newline and tab) and the bidirectional formatting characters
  // shown as escapes, as the CLI and the text log show them: `\x1b`, `\u{202e}`. Text is
  // never parsed as markup, but a browser does obey U+202E and its kin, so a command could
  // read differently from what runs ("Trojan Source").
  const HIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
  const visible = (text) => String(text).replace(HIDDEN, (c) => {
    const code = c.codePointAt(0);
    return code < 0x80 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16)}}`;
  });

  const errorText = (res) => visible(res.data?.error?.message ?? `HTTP ${res.status}`);

  // An element with fixed attributes and children; strings become text nodes, with their
  // hidden characters made visible (as are titles).
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs ?? {})) {
      if (k === 'class') node.className = v;
      else node.setAttribute(k, k === 'title' ? visible(v) : v);
    }
    for (const child of children) {
      if (typeof child === 'string') node.append(visible(child));
      else if (child !== null && child !== undefined) node.append(child);
    }
    return node;
  }

  const pad = (n, w = 2) => String(n).padStart(w, '0');
  function clock(ms) {
    const d = new Date(ms);
    return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
  }
  function when(ms) {
    const d = new Date(ms);
    return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${clock(ms)}`;
  }
  function left(ms) {
    if (ms <= 0) return 'expired';
    const s = Math.ceil(ms / 1000);
    return s >= 3600
      ? `${Math.floor(s / 3600)}h ${pad(Math.floor((s % 3600) / 60))}m`
      : `${Math.floor(s / 60)}:${pad(s % 60)}`;
  }

  // ---- signing in and out -------------------------------------------------------------

  function clearData() {
    for (const id of ['approvals', 'grants', 'decisions', 'status', 'status-problems', 'reload-diagnostics']) {
      $(id).replaceChildren();
    }
    for (const id of ['pending-count', 'grant-count', 'reload-result', 'healthy', 'approvals-unavailable']) {
      $(id).textContent = '';
    }
    cards.clear();
    lastSeq = 0;
    grantsKey = '';
    statusKey = '';
  }

  function showLogin(message) {
    generation += 1;
    clearTimeout(timer);
    clearData();
    $('app').hidden = true;
    $('signout').hidden = true;
    $('login').hidden = false;
    $('login-error').textContent = message;
    $('conn').textContent = 'signed out';
    $('token').focus();
  }

  function showApp() {
    generation += 1;
    $('login').hidden = true;
    $('login-error').textContent = '';
    $('app').hidden = false;
    $('signout').hidden = false;
    refresh();
  }

  // Whether the daemon accepts `candidate` (null: no token at all).
  async function accepted(candidate) {
    const saved = token;
    token = candidate;
    try {
      await api('GET', '/v1/status');
      return true;
    } catch (e) {
      token = saved;
      if (e instanceof Unauthorized) return false;
      throw e;
    }
  }

  async function start() {
    try {
      if (await accepted(token)) showApp();
      else if (token) {
        sessionStorage.removeItem(TOKEN_KEY);
        token = null;
        showLogin('The daemon refused the saved token; enter the current one.');
      } else showLogin('');
    } catch {
      $('conn').textContent = 'daemon unreachable; retrying';
      setTimeout(start, POLL_MS);
    }
  }

  $('login-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const input = $('token');
    const candidate = input.value.trim();
    input.value = '';
    if (!candidate) return;
    try {
      if (await accepted(candidate)) {
        sessionStorage.setItem(TOKEN_KEY, candidate);
        showApp();
      } else {
        showLogin('wrong token');
      }
    } catch {
      showLogin('The daemon is unreachable.');
    }
  });

  $('signout').addEventListener('click', async () => {
    sessionStorage.removeItem(TOKEN_KEY);
    token = null;
    try {
      await fetch('/logout', { method: 'POST', credentials: 'same-origin', redirect: 'error' });
    } catch {
      // The session cookie ends with the daemon anyway.
    }
    showLogin('');
  });

  function lostToken() {
    sessionStorage.removeItem(TOKEN_KEY);
    token = null;
    showLogin('The daemon refused the token (was it rotated?); enter the current one.');
  }

  // ---- polling --------------------------------------------------------------------------

  // Polls now; if a poll is under way, right after it.
  function refresh() {
    clearTimeout(timer);
    if (polling) again = true;
    else tick(generation);
  }

  async function tick(gen) {
    polling = true;
    again = false;
    const wanted = filter;
    const query = new URLSearchParams({ after: String(lastSeq), limit: String(MAX_ROWS) });
    if (wanted) query.set('decision', wanted);
    try {
      const [approvals, grants, decisions, status] = await Promise.all([
        api('GET', '/v1/approvals'),
        api('GET', '/v1/grants'),
        api('GET', `/v1/decisions?${query}`),
        api('GET', '/v1/status'),
      ]);
      if (gen === generation) {
        renderApprovals(approvals);
        renderGrants(grants);
        if (wanted === filter) renderDecisions(decisions);
        renderStatus(status);
        $('conn').textContent = 'live';
        $('conn').className = 'conn live';
      }
    } catch (e) {
      if (e instanceof Unauthorized) {
        polling = false;
        if (gen === generation) lostToken();
        return;
      }
      if (gen === generation) {
        $('conn').textContent = 'daemon unreachable; retrying';
        $('conn').className = 'conn down';
      }
    }
    polling = false;
    if ($('app').hidden) return;
    const current = generation;
    // Asked for meanwhile (a decision, a new filter, a new sign-in): poll again at once.
    if (again || gen !== current || wanted !== filter) tick(current);
    else if (!document.hidden) timer = setTimeout(() => tick(current), POLL_MS);
  }

  document.addEventListener('visibilitychange', () => {
    if (!document.hidden && !$('app').hidden) refresh();
  });

  // ---- pending approvals ------------------------------------------------------------------

  // The glob that matches exactly `subject` (as the daemon's default always-grant does), so
  // that an unedited "always approve" grants no more than what is shown.
  const globLiteral = (subject) => subject.replace(/[*?[\]{}\\]/g, '\\$&');

  function renderApprovals(res) {
    const box = $('approvals-unavailable');
    if (!res.ok) {
      box.hidden = false;
      box.textContent = `Approvals: ${errorText(res)}`;
      return;
    }
    box.hidden = !res.data.unavailable;
    box.textContent = res.data.unavailable ? `Approvals are unavailable: ${visible(res.data.unavailable)}` : '';
    const seen = new Set();
    for (const request of res.data.pending ?? []) {
      seen.add(request.id);
      if (!cards.has(request.id)) {
        const card = approvalCard(request);
        cards.set(request.id, card);
        $('approvals').append(card.node);
      }
    }
    for (const [id, card] of cards) {
      if (!seen.has(id)) {
        card.node.remove();
        cards.delete(id);
      }
    }
    countDown();
  }

  function approvalCard(r) {
    const risk = RISKS.has(r.risk) ? r.risk : 'medium';
    const timeLeft = el('span', { class: 'left' });
    const error = el('p', { class: 'error', role: 'alert' });
    const buttons = [];
    const button = (decision, pattern) => {
      const b = el('button', { type: 'button', class: decision === 'deny' ? 'danger' : '' }, LABELS[decision]);
      b.dataset.decision = decision;
      b.addEventListener('click', () => decide(r.id, decision, pattern?.value, buttons, error));
      buttons.push(b);
      return b;
    };
    const allowed = (r.allowedDecisions ?? []).filter((d) => d in LABELS);
    const actions = el('div', { class: 'actions' });
    for (const d of allowed) if (d !== 'approve_always') actions.append(button(d));
    let always = null;
    if (allowed.includes('approve_always')) {
      const pattern = el('input', { type: 'text', class: 'pattern', spellcheck: 'false', 'aria-label': 'grant pattern (tool:glob)' });
      pattern.value = `${r.tool ?? ''}:${globLiteral(r.subject)}`;
      always = el('div', { class: 'always' }, pattern, button('approve_always', pattern));
    }
    const facts = el('dl', { class: 'facts' },
      el('dt', null, 'session'), el('dd', null, r.sessionKey),
      el('dt', null, 'hook'), el('dd', null, r.hook),
      el('dt', null, 'reasons'), el('dd', null, (r.reasons ?? []).join('; ') || '—'),
      el('dt', null, 'asked'), el('dd', null, when(r.createdAtMs)),
      el('dt', null, 'on timeout'), el('dd', null, r.timeoutAction),
    );
    const node = el('article', { class: `card risk-${risk}`, 'data-id': r.id },
      el('header', null,
        el('span', { class: 'tool' }, r.tool ?? '(no tool)'),
        el('span', { class: `badge risk-${risk}` }, risk),
        timeLeft),
      el('pre', { class: 'command' }, r.subject),
      facts, actions, always, error);
    return { node, timeLeft, expires: r.expiresAtMs };
  }

  async function decide(id, decision, pattern, buttons, error) {
    for (const b of buttons) b.disabled = true;
    error.textContent = '';
    const body = { decision, by: 'console' };
    if (decision === 'approve_always' && pattern) body.pattern = pattern.trim();
    try {
      const res = await api('POST', `/v1/approvals/${encodeURIComponent(id)}`, body);
      if (!res.ok) {
        error.textContent = errorText(res);
        for (const b of buttons) b.disabled = false;
        return;
      }
      cards.get(id)?.node.remove();
      cards.delete(id);
      refresh();
    } catch (e) {
      if (e instanceof Unauthorized && !refusedHere(e)) return lostToken();
      error.textContent = e instanceof Unauthorized ? visible(e.message) : 'The daemon is unreachable.';
      for (const b of buttons) b.disabled = false;
    }
  }

  // Local clock against the daemon's expiry: both are normally the same host's.
  function countDown() {
    const now = Date.now();
    for (const card of cards.values()) {
      const ms = card.expires - now;
      card.timeLeft.textContent = left(ms);
      card.timeLeft.classList.toggle('urgent', ms < 15000);
    }
    $('pending-count').textContent = String(cards.size);
    $('approvals-empty').hidden = cards.size > 0;
  }
  setInterval(countDown, 500);

  // ---- grants -------------------------------------------------------------------------------

  function renderGrants(res) {
    if (!res.ok) return;
    const grants = res.data.grants ?? [];
    const key = grants.map((g) => g.id).join(',');
    $('grant-count').textContent = String(grants.length);
    $('grants-empty').hidden = grants.length > 0;
    if (key === grantsKey) return;
    grantsKey = key;
    $('grants').replaceChildren(...grants.map(grantRow));
  }

  function grantRow(g) {
    const what = g.kind === 'always'
      ? el('code', null, g.pattern)
      : el('span', null, el('code', null, `${g.tool}:${g.subject}`), el('span', { class: 'muted' }, ` in ${g.sessionKey}`));
    const revoke = el('button', { type: 'button', class: 'ghost danger' }, 'Revoke');
    revoke.addEventListener('click', async () => {
      revoke.disabled = true;
      try {
        const res = await api('DELETE', `/v1/grants/${encodeURIComponent(g.id)}`);
        if (!res.ok && res.status !== 404) {
          revoke.disabled = false;
          revoke.title = errorText(res);
        }
        refresh();
      } catch (e) {
        if (e instanceof Unauthorized && !refusedHere(e)) lostToken();
        else {
          revoke.disabled = false;
          if (e instanceof Unauthorized) revoke.title = visible(e.message);
        }
      }
    });
    const row = el('tr', { 'data-id': g.id },
      el('td', null, el('span', { class: 'badge' }, g.kind)),
      el('td', null, what),
      el('td', null, g.by),
      el('td', null, when(g.atMs)),
      el('td', null, revoke));
    return row;
  }

  // ---- recent decisions -----------------------------------------------------------------

  function renderDecisions(res) {
    if (!res.ok) return;
    const body = $('decisions');
    // Newest first in the answer: insert the oldest first, each at the top.
    for (const d of [...(res.data.decisions ?? [])].reverse()) {
      const verdict = VERDICTS.has(d.decision) ? d.decision : 'ask';
      body.prepend(el('tr', { class: `decision-${verdict}`, 'data-seq': String(d.seq) },
        el('td', { title: d.ts }, clock(Date.parse(d.ts))),
        el('td', null, d.point),
        el('td', null, d.tool ?? ''),
        el('td', { class: 'subject', title: d.sessionKey }, d.subject),
        el('td', null, el('span', { class: `badge ${verdict}` }, verdict)),
        el('td', null, d.hook ?? ''),
        el('td', { class: 'message' }, d.message ?? ''),
        el('td', { class: 'num' }, `${Number(d.latencyMs).toFixed(3)} ms`)));
    }
    while (body.rows.length > MAX_ROWS) body.lastElementChild.remove();
    lastSeq = res.data.last ?? lastSeq;
    $('decisions-empty').hidden = body.rows.length > 0;
  }

  for (const b of document.querySelectorAll('[data-filter]')) {
    b.addEventListener('click', () => {
      filter = b.dataset.filter;
      for (const other of document.querySelectorAll('[data-filter]')) {
        other.setAttribute('aria-pressed', String(other === b));
      }
      lastSeq = 0;
      $('decisions').replaceChildren();
      refresh();
    });
  }

  // ---- policy status and reload --------------------------------------------------------

  function diagnostics(list) {
    return el('ul', { class: 'diagnostics' }, ...(list ?? []).map((d) =>
      el('li', null,
        el('code', null, d.file),
        ` line ${d.line}, column ${d.column}: ${d.message}`,
        d.path ? el('span', { class: 'muted' }, ` (${d.path})`) : null,
        d.help ? el('div', { class: 'muted' }, d.help) : null)));
  }

  function problem(title, report) {
    return el('div', { class: 'problem' },
      el('strong', null, title),
      el('span', { class: 'muted', title: report.at }, ` ${when(Date.parse(report.at))} (${report.trigger})`),
      el('p', null, report.error?.message ?? ''),
      diagnostics(report.error?.diagnostics));
  }

  function renderStatus(res) {
    if (!res.ok) return;
    const s = res.data;
    const key = JSON.stringify(s);
    if (key === statusKey) return;
    statusKey = key;
    const healthy = $('healthy');
    healthy.textContent = s.healthy ? 'healthy' : 'reload failed';
    healthy.className = `badge ${s.healthy ? 'allow' : 'block'}`;
    const files = el('ul', { class: 'files' }, ...(s.files ?? []).map((f) =>
      el('li', null, el('code', null, f.path), el('span', { class: 'muted' }, ` ${f.role}`))));
    const last = s.lastReload;
    $('status').replaceChildren(
      el('dt', null, 'file'), el('dd', null, el('code', null, s.config)),
      el('dt', null, 'files'), el('dd', null, files),
      el('dt', null, 'hash'), el('dd', null, el('code', { title: s.hash }, String(s.hash).slice(0, 23))),
      el('dt', null, 'hooks'), el('dd', null, String(s.hooks)),
      el('dt', null, 'loaded'), el('dd', { title: s.loadedAt }, when(Date.parse(s.loadedAt))),
      el('dt', null, 'last reload'), el('dd', { title: last?.at ?? '' },
        last ? `${last.result}, ${when(Date.parse(last.at))} (${last.trigger})` : 'none since start'));
    const problems = [];
    if (last?.result === 'error') problems.push(problem('The file on disk is not in force:', last));
    else if (s.lastError) problems.push(problem('Last failed reload (fixed since):', s.lastError));
    if (s.warnings?.length) problems.push(el('div', { class: 'problem' }, el('strong', null, 'Warnings'), diagnostics(s.warnings)));
    $('status-problems').replaceChildren(...problems);
  }

  $('reload').addEventListener('click', async () => {
    const button = $('reload');
    const result = $('reload-result');
    button.disabled = true;
    result.textContent = 'reloading…';
    result.className = '';
    $('reload-diagnostics').replaceChildren();
    try {
      const res = await api('POST', '/v1/reload');
      const d = res.data ?? {};
      if (d.result === 'reloaded') result.textContent = `Reloaded: ${d.hooks} hooks, ${visible(d.hash)}`;
      else if (d.result === 'unchanged') result.textContent = 'Unchanged: the file holds the policy in force.';
      else {
        result.textContent = `Reload failed: ${d.error?.message ? visible(d.error.message) : errorText(res)}`;
        result.className = 'error';
        $('reload-diagnostics').append(diagnostics(d.error?.diagnostics));
      }
      refresh();
    } catch (e) {
      if (e instanceof Unauthorized && !refusedHere(e)) return lostToken();
      result.textContent = e instanceof Unauthorized ? visible(e.message) : 'The daemon is unreachable.';
    } finally {
      button.disabled = false;
    }
  });

  start();
})();
