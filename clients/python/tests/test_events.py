"""The typed webhook events of clickwrap.events match the OpenAPI document's `webhooks`."""

import json
import typing
from pathlib import Path

from clickwrap import EVENT_TYPES
from clickwrap.events import EVENT_BODIES

DOCUMENT = Path(__file__).resolve().parents[3] / "docs" / "openapi.json"


def follow(document: dict, node: dict) -> dict:
    """The schema a `$ref` names (local references only), or the node itself."""
    while "$ref" in node:
        target = document
        for part in node["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        node = target
    return node


def test_one_typed_body_per_documented_webhook_with_the_same_fields():
    document = json.loads(DOCUMENT.read_text())
    documented = {}
    for hook in document["webhooks"].values():
        body = follow(document, hook["post"]["requestBody"]["content"]["application/json"]["schema"])
        event_type = body["properties"]["eventType"]["const"]
        data = follow(document, body["properties"]["data"])
        documented[event_type] = (set(body["required"]), set(data["required"]))
    assert set(documented) == set(EVENT_TYPES) == set(EVENT_BODIES)
    assert list(EVENT_TYPES) == document["components"]["schemas"]["WebhookEventType"]["enum"]
    for event_type, body_type in EVENT_BODIES.items():
        hints = typing.get_type_hints(body_type)
        assert typing.get_args(hints["eventType"]) == (event_type,)
        data_fields = set(typing.get_type_hints(hints["data"]))
        assert (set(hints), data_fields) == documented[event_type], event_type
