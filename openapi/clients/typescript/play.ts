// Plays one Magnate game between two fresh accounts through the client generated from
// ../../openapi.json (openapi-typescript types + openapi-fetch calls).
//
//   npm ci && npm run generate && npm run build && node dist/play.js [BASE_URL]
//
// BASE_URL defaults to $HERALD_URL, else http://127.0.0.1:8080.
//
// Exits non-zero on any answer it did not expect.
import { randomUUID } from "node:crypto";
import createClient, { type Client } from "openapi-fetch";
import type { components, paths } from "./schema.d.ts";

type Schemas = components["schemas"];
type Action = Schemas["Action"];
type GameAction = Schemas["GameAction"];
type GameResource = Schemas["GameResource"];
type Problem = Schemas["Problem"];

const base = process.argv[2] ?? process.env["HERALD_URL"] ?? "http://127.0.0.1:8080";

class Unexpected extends Error {}

/** The data of a successful answer, or an `Unexpected` naming the call and the problem. */
function ok<T>(what: string, r: { data?: T; error?: Problem; response: Response }): T {
  if (r.error !== undefined) {
    throw new Unexpected(`${what}: ${r.response.status} ${r.error.code}: ${r.error.detail}`);
  }
  if (r.data === undefined) throw new Unexpected(`${what}: ${r.response.status} without a body`);
  return r.data;
}

function pick<T>(items: readonly T[]): T {
  const item = items[Math.floor(Math.random() * items.length)];
  if (item === undefined) throw new Unexpected("nothing to pick from");
  return item;
}

/** A listed action made submittable: the typed object without its `notation`, or the notation
 * alone (both are accepted). Seat actions (`resign`, `timeout`) are never listed as legal. */
function submittable(a: GameAction, byNotation: boolean): Action {
  if (a.type === "resign" || a.type === "timeout") {
    throw new Unexpected(`a seat action was listed as legal: ${a.type}`);
  }
  if (byNotation) {
    if (a.notation == null) throw new Unexpected(`a listed ${a.type} action has no notation`);
    return { notation: a.notation };
  }
  const { notation: _listed, ...typed } = a;
  return typed;
}

interface Player {
  name: string;
  email: string;
  api: Client<paths>;
}

async function register(name: string): Promise<Player> {
  const anon = createClient<paths>({ baseUrl: base });
  const email = `${name.toLowerCase()}-${randomUUID()}@example.org`;
  const password = `${randomUUID()} secret`;
  const account = ok(
    `register ${name}`,
    await anon.POST("/api/v1/accounts", { body: { email, display_name: name, password } }),
  );
  const token = ok(`token for ${name}`, await anon.POST("/api/v1/auth/token", { body: { email, password } }));
  console.log(`registered ${account.display_name} <${account.email}> ${account.id}`);
  const api = createClient<paths>({
    baseUrl: base,
    headers: { Authorization: `${token.token_type} ${token.access_token}` },
  });
  return { name, email, api };
}

async function view(p: Player, id: string): Promise<GameResource> {
  return ok(`${p.name} reads the game`, await p.api.GET("/api/v1/games/{id}", { params: { path: { id } } }));
}

/** The typed refusal: a submission decided on an older version answers 409 `stale_version`. */
async function staleRefusal(p: Player, g: GameResource, listed: GameAction): Promise<void> {
  const r = await p.api.POST("/api/v1/games/{id}/actions", {
    params: { path: { id: g.id } },
    body: { expected_version: g.version - 1, actions: [submittable(listed, true)] },
  });
  const problem = r.error;
  if (problem === undefined) throw new Unexpected(`a stale submission was accepted (${r.response.status})`);
  const type = r.response.headers.get("content-type");
  if (r.response.status !== 409 || problem.code !== "stale_version" || problem.version !== g.version) {
    throw new Unexpected(`stale submission: ${r.response.status} ${problem.code} version=${problem.version}`);
  }
  console.log(
    `refused as expected: ${problem.status} ${type} code=${problem.code} version=${problem.version}: ${problem.detail}`,
  );
}

/** The outcome is an untyped object in the document; Magnate's has `winners`, a list of seats. */
function winner(g: GameResource): string {
  const o = g.outcome;
  const winners = typeof o === "object" && o !== null ? o["winners"] : undefined;
  if (!Array.isArray(winners) || winners.length === 0) {
    throw new Unexpected(`a finished game without winners in its outcome: ${JSON.stringify(o)}`);
  }
  const seats: unknown[] = winners;
  return g.seats
    .filter((s) => seats.includes(s.seat))
    .map((s) => `${s.player?.display_name ?? "?"} (seat ${s.seat})`)
    .join(" and ");
}

async function main(): Promise<void> {
  const started = performance.now();
  const ada = await register("Ada");
  const bruno = await register("Bruno");

  const created = ok(
    "create",
    await ada.api.POST("/api/v1/games", {
      body: { kind: "magnate", options: { preset: "standard" }, invite: [bruno.email] },
    }),
  );
  console.log(`created ${created.kind} game ${created.id} (${created.status})`);
  const joined = ok(
    "join",
    await bruno.api.POST("/api/v1/games/{id}/join", {
      params: { path: { id: created.id } },
      body: { entropy: randomUUID() },
    }),
  );
  console.log(`Bruno joined: ${joined.status}, version ${joined.version}`);
  if (joined.status !== "active") throw new Unexpected(`the game did not start: ${joined.status}`);

  let actions = 0;
  let refused = false;
  let mover: Player = ada;
  let g = await view(ada, created.id);
  while (g.status === "active") {
    if (g.legal_actions.length === 0) {
      mover = mover === ada ? bruno : ada;
      g = await view(mover, created.id);
      if (g.legal_actions.length === 0 && g.status === "active") throw new Unexpected("nobody may move");
      continue;
    }
    const listed = pick(g.legal_actions);
    if (!refused) {
      await staleRefusal(mover, g, listed);
      refused = true;
    }
    g = ok(
      `${mover.name} plays ${listed.notation}`,
      await mover.api.POST("/api/v1/games/{id}/actions", {
        params: { path: { id: g.id }, header: { "Idempotency-Key": randomUUID() } },
        body: { expected_version: g.version, actions: [submittable(listed, actions % 2 === 0)] },
      }),
    );
    actions += 1;
    if (actions > 5000) throw new Unexpected("the game did not end within 5000 actions");
  }
  if (g.status !== "finished") throw new Unexpected(`the game ended as ${g.status}`);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`finished: winner ${winner(g)} after ${actions} actions (version ${g.version}, ${seconds} s)`);
  console.log(`outcome: ${JSON.stringify(g.outcome)}`);
}

main().catch((e: unknown) => {
  console.error(e instanceof Unexpected ? `unexpected answer: ${e.message}` : e);
  process.exit(1);
});
