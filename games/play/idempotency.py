"""The ``Idempotency-Key`` of moves and undos, at the API's edge: a retry gets the first answer.

The services know nothing of it. A view hands its change to ``answer_once(..., make=...)``, the
one path of every such request, which looks the key up first: for a key the player has used
already, the answer is the one kept for it, and nothing changes. Otherwise ``make`` makes the
change and returns its answer, inside one transaction with the answer kept for the key
(:class:`~games.models.IdempotencyRecord`): the move and its kept answer are committed together or
not at all. Two requests with one key at the same moment (a retry that overtakes the first
attempt, or the key sent to two games): the record's unique key lets one commit, and the other
rolls its move back and answers as a retry. A refusal (409, 422) is kept too, so its retry is
refused the same way; an answer about the request itself (400, 404, 429) is not.

A request that makes its game (``POST games/offline``, where the key is required: the device's
name for the game it dealt) passes no game: the view names the game it made (``answer.game_id``)
before its answer is kept, and a refusal raised before any game was made is not kept (it keeps
nothing, and its retry is refused again the same way). An answer the view sets, whatever its
status (201, or 422 ``batch_refused`` of a batch kept up to its last legal move), is given again
as it was.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from django.db import IntegrityError, transaction
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter
from rest_framework.request import Request
from rest_framework.response import Response

from common.errors import ApplicationError, ErrorCode
from games.models import IdempotencyRecord
from games.play import selectors, store
from games.players import Player

__all__ = ["IDEMPOTENCY_PARAMETER", "IDEMPOTENCY_REQUIRED", "Answer", "answer_once"]

_KEY = re.compile(r"^[\x21-\x7e]{1,255}$")
#: The statuses of the refusals that are kept for their key, as an accepted answer is.
KEPT_REFUSALS = frozenset({409, 422})


def _key_parameter(*, required: bool, description: str) -> OpenApiParameter:
    """The schema of the ``Idempotency-Key`` header."""
    return OpenApiParameter(
        name="Idempotency-Key",
        type=str,
        location=OpenApiParameter.HEADER,
        required=required,
        pattern=_KEY.pattern,
        description=description,
    )


IDEMPOTENCY_PARAMETER = _key_parameter(
    required=False,
    description="Any 1–255 visible ASCII characters. A retry with the same key returns the first "
    "answer and changes nothing; the same key with a different request is 422 `idempotency_conflict`.",
)

#: The key of a request that makes its game (``POST games/offline``): required, the device's name for it.
IDEMPOTENCY_REQUIRED = _key_parameter(
    required=True,
    description="Required: any 1–255 visible ASCII characters, the device's name for the game (else 400 "
    "`bad_idempotency_key`). A retry with the same key returns the first answer and makes no second game; "
    "the same key with a different request is 422 `idempotency_conflict`.",
)


@dataclass(slots=True)
class Answer:
    """What ``make`` tells of the change it made beside its answer: for a request that makes its
    game (``answer_once(game_id=None)``), the game it made."""

    game_id: UUID | None = None


def answer_once(
    request: Request,
    *,
    game_id: UUID | None,
    player: Player,
    make: Callable[[Answer], Response],
    required: bool = False,
) -> Response:
    """The answer to a request that changes ``player``'s game ``game_id``: the one kept for the
    request's key if it has one already (a retry: nothing changes), else ``make(answer)``'s (the
    change, made here, in one transaction with the answer kept for the key).

    Called once the view has read the request's body (a malformed body is refused first,
    whatever its key). The same key with another request is 422 ``idempotency_conflict``, but a
    game that is not the player's is 404 first, as without a key. ``game_id`` None: ``make``
    makes the game and names it in ``answer.game_id``. ``required``: a request without a key is
    400 ``bad_idempotency_key``.
    """
    key = request.headers.get("Idempotency-Key")
    answer = Answer()
    if key is None:
        if required:
            raise ApplicationError(ErrorCode.BAD_IDEMPOTENCY_KEY)
        return make(answer)
    if not _KEY.fullmatch(key):
        raise ApplicationError(ErrorCode.BAD_IDEMPOTENCY_KEY)
    fingerprint = _fingerprint(request)
    record = store.answer_read(scope=player.scope, key=key)
    if record is not None:
        if record.fingerprint != fingerprint and game_id is not None:
            selectors.game_get(game_id=game_id, player=player)  # not the player's game: 404 first
        return _replay(record, fingerprint=fingerprint)
    kept = IdempotencyRecord(key=key, scope=player.scope, fingerprint=fingerprint)
    if game_id is not None:
        kept.game_id = game_id
    try:
        with transaction.atomic():
            response = make(answer)
            if game_id is None:
                if answer.game_id is None:
                    raise RuntimeError("the view named no game for its answer")
                kept.game_id = answer.game_id
            _record_save(kept, status=response.status_code, body=response.data)
        return response
    except ApplicationError as error:
        if error.status not in KEPT_REFUSALS or game_id is None:
            raise
        try:
            with transaction.atomic():
                _record_save(kept, status=error.status, body=error.payload())
        except IntegrityError:
            return _replay_stored(player=player, key=key, fingerprint=fingerprint, error=error)
        raise
    except IntegrityError as error:
        return _replay_stored(player=player, key=key, fingerprint=fingerprint, error=error)


def _fingerprint(request: Request) -> str:
    """What the request asked for: its method, path and body (keys in order)."""
    canonical = json.dumps(request.data, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(f"{request.method or ''} {request.path}\n{canonical}".encode()).hexdigest()


def _record_save(record: IdempotencyRecord, *, status: int, body: Any) -> None:
    record.response_status = status
    record.response_body = body
    record.created_at = timezone.now()
    store.answer_save(record)


def _replay(record: IdempotencyRecord, *, fingerprint: str) -> Response:
    """The kept answer (a refusal raised again, with the fields it carries), marked ``Idempotent-Replayed``."""
    if record.fingerprint != fingerprint:
        raise ApplicationError(ErrorCode.IDEMPOTENCY_CONFLICT)
    body = record.response_body
    if record.response_status >= 400:
        extra = {name: value for name, value in body.items() if name not in ("error", "detail")}
        raise ApplicationError(ErrorCode.of(body["error"]), detail=body["detail"], extra=extra)
    return Response(body, status=record.response_status, headers={"Idempotent-Replayed": "true"})


def _replay_stored(*, player: Player, key: str, fingerprint: str, error: Exception) -> Response:
    """The answer kept by the request that took the same key a moment ago (this one's change, if
    any, was rolled back); ``error`` again if the unique key was not what failed."""
    record = store.answer_read(scope=player.scope, key=key)
    if record is None:
        raise error
    return _replay(record, fingerprint=fingerprint)
