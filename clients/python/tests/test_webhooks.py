"""verify_webhook against requests signed here the way docs/webhooks.md says the service signs them."""

import hashlib
import hmac
import json

import pytest

from clickwrap import WebhookVerificationError, verify_webhook

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
