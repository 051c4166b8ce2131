"""verify_webhook and verify_standard_webhook against requests signed here the way docs/webhooks.md says
the service signs them, and the official standardwebhooks library against the same rule."""

import base64
import hashlib
import hmac
import json
from datetime import UTC, datetime

import pytest
from standardwebhooks import Webhook

from clickwrap import WebhookVerificationError, event_id, verify_standard_webhook, verify_webhook

SECRET = "whsec_c2VjcmV0LWZvci10aGUtdGVzdHMtb25seQ"
NOW = 1_795_000_000
BODY = json.dumps(
    {
        "eventType": "CLICKWRAP_EVENT_VERIFIED",
        "data": {"clickwrapEventId": "0192f3c4-5d6e-7f80-9a1b-2c3d4e5f6a7b", "clickwrapEventStatus": "ACCEPTED"},
    },
    separators=(",", ":"),
).encode()


def signed_headers(body: bytes = BODY, timestamp: int = NOW, secret: str = SECRET) -> dict[str, str]:
    """The headers the service sends: written out from the documented rule, not with the library."""
    payload = str(timestamp).encode() + b"." + body
    digest = hmac.new(secret.encode(), payload, hashlib.sha256).hexdigest()
    return {"X-Service-Timestamp": str(timestamp), "X-Service-Signature": f"sha256={digest}"}


def reason_of(body: bytes, headers: dict[str, str], **options) -> str:
    with pytest.raises(WebhookVerificationError) as raised:
        verify_webhook(body, headers, SECRET, now=options.pop("now", NOW), **options)
    return raised.value.reason


def test_an_authentic_fresh_request_gives_its_event():
    event = verify_webhook(BODY, signed_headers(), SECRET, now=NOW)
    assert event["eventType"] == "CLICKWRAP_EVENT_VERIFIED"
    assert event["data"]["clickwrapEventId"] == "0192f3c4-5d6e-7f80-9a1b-2c3d4e5f6a7b"


def test_header_names_are_matched_in_any_case_and_the_secret_may_be_bytes():
    headers = {name.lower(): value for name, value in signed_headers().items()}
    assert verify_webhook(BODY, headers, SECRET.encode(), now=NOW)["eventType"] == "CLICKWRAP_EVENT_VERIFIED"


def test_a_signature_made_with_another_secret_is_refused():
    assert reason_of(BODY, signed_headers(secret="whsec_another")) == "SIGNATURE_MISMATCH"


def test_a_tampered_body_is_refused():
    tampered = BODY.replace(b"ACCEPTED", b"DECLINED")
    assert tampered != BODY
    assert reason_of(tampered, signed_headers()) == "SIGNATURE_MISMATCH"


def test_re_serialised_json_is_refused_because_its_bytes_differ():
    pretty = json.dumps(json.loads(BODY), indent=2).encode()
    assert reason_of(pretty, signed_headers()) == "SIGNATURE_MISMATCH"


def test_a_changed_timestamp_breaks_the_signature():
    headers = signed_headers()
    headers["X-Service-Timestamp"] = str(NOW + 1)
    assert reason_of(BODY, headers, now=NOW + 1) == "SIGNATURE_MISMATCH"


def test_the_secret_is_used_as_text_not_decoded():
    # A receiver that strips the whsec_ prefix, or base64-decodes the rest, computes another digest.
    headers = signed_headers(secret=SECRET.removeprefix("whsec_"))
    assert reason_of(BODY, headers) == "SIGNATURE_MISMATCH"


@pytest.mark.parametrize("age", [301, -301, 86_400])
def test_a_timestamp_beyond_the_tolerance_either_way_is_refused(age):
    headers = signed_headers(timestamp=NOW - age)
    assert reason_of(BODY, headers) == "STALE_TIMESTAMP"


@pytest.mark.parametrize("age", [300, -300, 0])
def test_a_timestamp_within_the_tolerance_is_accepted(age):
    assert verify_webhook(BODY, signed_headers(timestamp=NOW - age), SECRET, now=NOW)


def test_the_tolerance_can_be_narrowed():
    headers = signed_headers(timestamp=NOW - 60)
    assert reason_of(BODY, headers, tolerance=30) == "STALE_TIMESTAMP"
    assert verify_webhook(BODY, headers, SECRET, tolerance=60, now=NOW)


def test_the_clock_is_used_when_no_time_is_given():
    # Signed "now" by the real clock's standards would pass; signed in 2001 it must be stale.
    headers = signed_headers(timestamp=1_000_000_000)
    with pytest.raises(WebhookVerificationError) as raised:
        verify_webhook(BODY, headers, SECRET)
    assert raised.value.reason == "STALE_TIMESTAMP"


@pytest.mark.parametrize("missing", ["X-Service-Timestamp", "X-Service-Signature"])
def test_a_missing_header_is_refused(missing):
    headers = signed_headers()
    del headers[missing]
    assert reason_of(BODY, headers) == "MISSING_HEADER"


@pytest.mark.parametrize("timestamp", ["", "abc", "1795000000.5", "-1795000000", " 1795000000", "１２３"])
def test_a_malformed_timestamp_is_refused(timestamp):
    headers = signed_headers()
    headers["X-Service-Timestamp"] = timestamp
    assert reason_of(BODY, headers) == "MALFORMED_TIMESTAMP"


def test_malformed_signatures_are_refused():
    digest = signed_headers()["X-Service-Signature"].removeprefix("sha256=")
    malformed = ["", digest, f"sha1={digest}", f"sha256={digest.upper()}", f"sha256={digest[:-2]}", f"sha256={digest} "]
    for signature in malformed:
        headers = signed_headers()
        headers["X-Service-Signature"] = signature
        assert reason_of(BODY, headers) == "MALFORMED_SIGNATURE", signature


def test_an_authentic_body_that_is_not_a_json_object_is_refused():
    body = b"[1, 2, 3]"
    assert reason_of(body, signed_headers(body=body)) == "MALFORMED_BODY"


def test_a_parsed_body_is_not_accepted_in_place_of_the_raw_bytes():
    with pytest.raises(TypeError):
        verify_webhook(BODY.decode(), signed_headers(), SECRET, now=NOW)  # type: ignore[arg-type]


@pytest.mark.parametrize("secret", ["", b""])
def test_an_empty_secret_is_refused_rather_than_used_as_a_key(secret):
    # Signed with the empty key, as anybody could: a receiver whose secret setting is missing must
    # not take this for an authentic request.
    headers = signed_headers(secret="")
    with pytest.raises(ValueError, match="secret"):
        verify_webhook(BODY, headers, secret, now=NOW)


# Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`).

# A secret of the format the service hands out now (base64 of 32 bytes), and one of the first
# format (64 hex digits), which apps made before still have: hex text is base64 text too.
NEW_SECRET = "whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="
HEX_SECRET = "whsec_000102030405060708090a0b0c0d0e0ff0e1d2c3b4a5968778695a4b3c2d1eff"
MSG_ID = "msg_0192f3c4-5d6e-7f80-9a1b-2c3d4e5f6a7b"


def standard_headers(
    body: bytes = BODY, timestamp: int = NOW, secret: str = NEW_SECRET, msg_id: str = MSG_ID
) -> dict[str, str]:
    """The Standard Webhooks headers, written out from the documented rule, not with the library."""
    key = base64.b64decode(secret.removeprefix("whsec_"))
    digest = hmac.new(key, f"{msg_id}.{timestamp}.".encode() + body, hashlib.sha256).digest()
    return {
        "webhook-id": msg_id,
        "webhook-timestamp": str(timestamp),
        "webhook-signature": "v1," + base64.b64encode(digest).decode(),
    }


def standard_reason(body: bytes, headers: dict[str, str], secret: str = NEW_SECRET, **options) -> str:
    with pytest.raises(WebhookVerificationError) as raised:
        verify_standard_webhook(body, headers, secret, now=options.pop("now", NOW), **options)
    return raised.value.reason


@pytest.mark.parametrize("secret", [NEW_SECRET, HEX_SECRET])
def test_standard_webhooks_authentic_requests_with_either_secret_format(secret):
    headers = standard_headers(secret=secret)
    event = verify_standard_webhook(BODY, headers, secret, now=NOW)
    assert event["eventType"] == "CLICKWRAP_EVENT_VERIFIED"
    assert event_id(headers) == MSG_ID
    other = HEX_SECRET if secret == NEW_SECRET else NEW_SECRET
    assert standard_reason(BODY, headers, secret=other) == "SIGNATURE_MISMATCH"


@pytest.mark.parametrize("secret", [NEW_SECRET, HEX_SECRET])
def test_the_official_library_signs_as_the_documented_rule_with_either_secret_format(secret):
    official = Webhook(secret).sign(MSG_ID, datetime.fromtimestamp(NOW, tz=UTC), BODY.decode())
    assert official == standard_headers(secret=secret)["webhook-signature"]


def test_the_services_own_test_vectors_for_both_secret_formats():
    # The known answers of crates/domain/src/webhooks/signing.rs, checked with the official library.
    body = (
        b'{"eventType":"CLICKWRAP_EVENT_VERIFIED","timestamp":"2025-11-22T07:15:03.000Z",'
        b'"data":{"clickwrapEventId":"0190b7c4-2a1e-7cc3-9f00-5d1e2f3a4b5c"}}'
    )
    at = datetime.fromtimestamp(1_763_795_703, tz=UTC)
    msg_id = "msg_0190b7c4-2a1e-7cc3-9f00-5d1e2f3a4b5c"
    assert Webhook(HEX_SECRET).sign(msg_id, at, body.decode()) == "v1,ZF7K2pn//8iqgd6fh2CSW0n5GiDNUoUMCBJItUXzLT0="
    assert Webhook(NEW_SECRET).sign(msg_id, at, body.decode()) == "v1,v899I3vS7fBR5yxM9Nxpnl5vW6X58ZVQYQsU+fUVBF8="


def test_standard_webhooks_refusals():
    assert standard_reason(BODY.replace(b"ACCEPTED", b"DECLINED"), standard_headers()) == "SIGNATURE_MISMATCH"
    other_id = standard_headers()
    other_id["webhook-id"] = "msg_other"
    assert standard_reason(BODY, other_id) == "SIGNATURE_MISMATCH"
    assert standard_reason(BODY, standard_headers(timestamp=NOW - 301)) == "STALE_TIMESTAMP"
    for missing in ["webhook-id", "webhook-timestamp", "webhook-signature"]:
        headers = standard_headers()
        del headers[missing]
        assert standard_reason(BODY, headers) == "MISSING_HEADER", missing
    malformed = standard_headers()
    malformed["webhook-signature"] = "v2," + malformed["webhook-signature"][3:]
    assert standard_reason(BODY, malformed) == "MALFORMED_SIGNATURE"


def test_several_signatures_any_of_which_matches_are_accepted():
    headers = standard_headers()
    wrong = standard_headers(secret=HEX_SECRET)["webhook-signature"]
    headers["webhook-signature"] = f"{wrong} {headers['webhook-signature']}"
    assert verify_standard_webhook(BODY, headers, NEW_SECRET, now=NOW)


@pytest.mark.parametrize("secret", ["", "whsec_", "whsec_not base64!"])
def test_a_secret_that_is_not_base64_is_a_configuration_error(secret):
    with pytest.raises(ValueError, match="secret"):
        verify_standard_webhook(BODY, standard_headers(), secret, now=NOW)
