// The HTTP API, as this page calls it: every call is a public endpoint of the service, with
// paths relative to the page, so the page works wherever the service is mounted.

/** An answer that is not 2xx: the RFC 9457 problem document the service sent. */
export class Problem extends Error {
  constructor(status, doc, retryAfter) {
    super(doc.detail || doc.title || `HTTP ${status}`);
    this.status = status;
    this.doc = doc;
    this.code = doc.code || '';
    this.retryAfter = retryAfter;
  }
}

async function request(method, path, body, accept = 'application/json') {
  const init = { method, headers: { accept } };
  if (body !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (e) {
    throw new Problem(0, {
      title: 'Network error',
      detail: `the service cannot be reached (${e.message})`,
      code: 'network',
    }, null);
  }
  const type = res.headers.get('content-type') || '';
  const json = type.includes('json');
  if (!res.ok) {
    const doc = json
      ? await res.json()
      : { title: res.statusText, detail: await res.text(), code: `http-${res.status}` };
    const retry = Number(res.headers.get('retry-after'));
    throw new Problem(res.status, doc, Number.isFinite(retry) && retry > 0 ? retry : null);
  }
  return json ? res.json() : res.text();
}

function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  }
  const s = q.toString();
  return s ? `?${s}` : '';
}

const variantPath = (v) => `v1/variants/${encodeURIComponent(v)}`;

export const api = {
  /** `GET /v1/variants`: the catalogue. */
  variants: () => request('GET', 'v1/variants'),
  /** The link to one variant's description (its rules). */
  variantUrl: (v) => variantPath(v),
  /** `GET /v1/variants/{v}/moves`: the legal moves of a position. */
  moves: (v, position) => request('GET', `${variantPath(v)}/moves${query({ position })}`),
  /** `POST /v1/variants/{v}/play`: the position after `moves`. */
  play: (v, position, moves) => request('POST', `${variantPath(v)}/play`, { position, moves }),
  /** `POST /v1/variants/{v}/judge`: the game judged. */
  judge: (v, body) => request('POST', `${variantPath(v)}/judge`, body),
  /** `GET /v1/variants/{v}/diagram`: the position as SVG text. */
  diagram: (v, position, flip) =>
    request(
      'GET',
      `${variantPath(v)}/diagram${query({ position, flip: flip ? 'true' : undefined })}`,
      undefined,
      'image/svg+xml',
    ),
  /** `GET /v1/variants/{v}/endgame`: the position's value in the endgame tables, with the
   * game's counts of its counted draw rules (`CODE:PLIES,...`). */
  endgame: (v, position, counts) =>
    request('GET', `${variantPath(v)}/endgame${query({ position, counts })}`),
  /** `GET /v1/variants/{v}/endgame/tables`: the materials the tables hold on this server. */
  endgameTables: (v) => request('GET', `${variantPath(v)}/endgame/tables`),
  /** `GET /v1/variants/{v}/perft`. */
  perft: (v, position, depth, divide) =>
    request('GET', `${variantPath(v)}/perft${query({ position, depth, divide })}`),
  /** `POST /v1/judge/pdn`: the games of a PDN text judged. */
  pdn: (body) => request('POST', 'v1/judge/pdn', body),
};
