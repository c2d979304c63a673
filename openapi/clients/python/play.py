"""Plays one Magnate game between two fresh accounts through the client that
openapi-python-client generated from ../../openapi.json (package `herald_client`).

    PYTHONPATH=generated .venv/bin/python play.py [BASE_URL]

BASE_URL defaults to $HERALD_URL, else http://127.0.0.1:8080. Exits non-zero on any
answer it did not expect.
"""

from __future__ import annotations

import os
import random
import sys
import time
import uuid
from dataclasses import dataclass
from http import HTTPStatus
from typing import Protocol, TypeVar

from herald_client import AuthenticatedClient, Client
from herald_client.api.accounts import create_account
from herald_client.api.auth import create_token
from herald_client.api.games import create_game, get_game, join_game, submit_actions
from herald_client.models import (
    AccountResponse,
    CreateAccountRequest,
    CreateGameRequest,
    CreateGameRequestOptionsType0,
    CreateGameRequestOptionsType0Preset,
    GameKindName,
    GameResource,
    GameStatus,
    JoinRequest,
    MagnateBuild,
    MagnateDeed,
    MagnateDevelop,
    MagnateEnd,
    MagnatePrefer,
    MagnateSell,
    MagnateTrade,
    NotationAction,
    PlayerRef,
    Problem,
    ProblemCode,
    SubmitRequest,
    TokenRequest,
    TokenResponse,
)
from herald_client.types import UNSET

BASE = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("HERALD_URL", "http://127.0.0.1:8080")

# The generator names no union; this game is Magnate, so a listed action is read as one of
# Magnate's (`magnate_action` checks it), and what is submitted is that or its notation alone.
MagnateAction = MagnateBuild | MagnateDeed | MagnateSell | MagnateDevelop | MagnateTrade | MagnatePrefer | MagnateEnd
MAGNATE_ACTIONS = (MagnateBuild, MagnateDeed, MagnateSell, MagnateDevelop, MagnateTrade, MagnatePrefer, MagnateEnd)
Action = MagnateAction | NotationAction

T = TypeVar("T")


class Unexpected(Exception):
    pass


class Answer(Protocol):
    """What `ok` reads of a generated `Response[...]` (some are typed `Response[Any | ...]`: the
    generator types a documented 304 without a body as `Any`, so `T` is taken from `want`)."""

    @property
    def status_code(self) -> HTTPStatus: ...
    @property
    def content(self) -> bytes: ...
    @property
    def parsed(self) -> object: ...


def ok(what: str, r: Answer, want: type[T]) -> T:
    """The parsed body of a successful answer, or `Unexpected` naming the call and the problem."""
    parsed = r.parsed
    if isinstance(parsed, Problem):
        raise Unexpected(f"{what}: {r.status_code.value} {parsed.code.value}: {parsed.detail}")
    if not isinstance(parsed, want):
        raise Unexpected(f"{what}: {r.status_code.value} {r.content[:200]!r}")
    return parsed


def magnate_action(a: object) -> MagnateAction:
    """A listed action of a Magnate game, typed; `Unexpected` for anything else (seat actions,
    `resign` and `timeout`, are never listed as legal)."""
    if not isinstance(a, MAGNATE_ACTIONS):
        raise Unexpected(f"a Magnate game listed {type(a).__name__}")
    return a


def submittable(a: MagnateAction, by_notation: bool) -> Action:
    """A listed action made submittable: the typed object without its `notation`, or the notation
    alone (both are accepted)."""
    if by_notation:
        if not isinstance(a.notation, str):
            raise Unexpected(f"a listed {a.type_.value} action has no notation")
        return NotationAction(notation=a.notation)
    a.notation = UNSET
    return a


@dataclass
class Player:
    name: str
    email: str
    api: AuthenticatedClient


def register(name: str) -> Player:
    anon = Client(base_url=BASE, raise_on_unexpected_status=True)
    email = f"{name.lower()}-{uuid.uuid4()}@example.org"
    password = f"{uuid.uuid4()} secret"
    account = ok(
        f"register {name}",
        create_account.sync_detailed(
            client=anon, body=CreateAccountRequest(email=email, display_name=name, password=password)
        ),
        AccountResponse,
    )
    token = ok(
        f"token for {name}",
        create_token.sync_detailed(client=anon, body=TokenRequest(email=email, password=password)),
        TokenResponse,
    )
    print(f"registered {account.display_name} <{account.email}> {account.id}")
    api = AuthenticatedClient(
        base_url=BASE, token=token.access_token, prefix=token.token_type, raise_on_unexpected_status=True
    )
    return Player(name, email, api)


def view(p: Player, game_id: uuid.UUID) -> GameResource:
    return ok(f"{p.name} reads the game", get_game.sync_detailed(game_id, client=p.api), GameResource)


def stale_refusal(p: Player, g: GameResource, listed: MagnateAction) -> None:
    """The typed refusal: a submission decided on an older version answers 409 `stale_version`."""
    body = SubmitRequest(expected_version=g.version - 1, actions=[submittable(listed, True)])
    r = submit_actions.sync_detailed(g.id, client=p.api, body=body)
    problem = r.parsed
    if not isinstance(problem, Problem):
        raise Unexpected(f"a stale submission was answered {r.status_code.value}")
    if r.status_code != 409 or problem.code != ProblemCode.STALE_VERSION or problem.version != g.version:
        raise Unexpected(f"stale submission: {r.status_code.value} {problem.code.value} version={problem.version}")
    print(
        f"refused as expected: {problem.status} {r.headers.get('content-type')} code={problem.code.value} "
        f"version={problem.version}: {problem.detail}"
    )


def winner(g: GameResource) -> str:
    """The outcome is an untyped object in the document; Magnate's has `winners`, a list of seats."""
    winners = g.outcome.additional_properties.get("winners") if g.outcome else None
    if not isinstance(winners, list) or not winners:
        raise Unexpected(f"a finished game without winners in its outcome: {g.outcome}")
    names = []
    for s in g.seats:
        if s.seat in winners:
            who = s.player.display_name if isinstance(s.player, PlayerRef) else "?"
            names.append(f"{who} (seat {s.seat})")
    return " and ".join(names)


def main() -> None:
    started = time.monotonic()
    ada = register("Ada")
    bruno = register("Bruno")

    options = CreateGameRequestOptionsType0(preset=CreateGameRequestOptionsType0Preset.STANDARD)
    request = CreateGameRequest(kind=GameKindName.MAGNATE, options=options, invite=[bruno.email])
    created = ok("create", create_game.sync_detailed(client=ada.api, body=request), GameResource)
    print(f"created {created.kind} game {created.id} ({created.status.value})")
    joined = ok(
        "join",
        join_game.sync_detailed(created.id, client=bruno.api, body=JoinRequest(entropy=str(uuid.uuid4()))),
        GameResource,
    )
    print(f"Bruno joined: {joined.status.value}, version {joined.version}")
    if joined.status != GameStatus.ACTIVE:
        raise Unexpected(f"the game did not start: {joined.status.value}")

    actions = 0
    refused = False
    mover = ada
    g = view(ada, created.id)
    while g.status == GameStatus.ACTIVE:
        if not g.legal_actions:
            mover = bruno if mover is ada else ada
            g = view(mover, created.id)
            if not g.legal_actions and g.status == GameStatus.ACTIVE:
                raise Unexpected("nobody may move")
            continue
        listed = magnate_action(random.choice(g.legal_actions))
        if not refused:
            stale_refusal(mover, g, listed)
            refused = True
        what = f"{mover.name} plays {listed.notation}"
        body = SubmitRequest(expected_version=g.version, actions=[submittable(listed, actions % 2 == 0)])
        r = submit_actions.sync_detailed(g.id, client=mover.api, body=body, idempotency_key=str(uuid.uuid4()))
        g = ok(what, r, GameResource)
        actions += 1
        if actions > 5000:
            raise Unexpected("the game did not end within 5000 actions")
    if g.status != GameStatus.FINISHED:
        raise Unexpected(f"the game ended as {g.status.value}")
    seconds = time.monotonic() - started
    print(f"finished: winner {winner(g)} after {actions} actions (version {g.version}, {seconds:.1f} s)")
    print(f"outcome: {g.outcome.to_dict() if g.outcome else None}")


if __name__ == "__main__":
    try:
        main()
    except Unexpected as e:
        print(f"unexpected answer: {e}", file=sys.stderr)
        sys.exit(1)
