"""The check of real traffic against docs/openapi.json (openapi_check.py) can fail: it names a
missing member, an undeclared status, media type or header, a refused request body, missing
credentials, and a webhook that differs; and it passes what the document declares, binaries included."""

from __future__ import annotations

import json

import httpx
import pytest
from openapi_check import TrafficRecorder, mismatches, webhook_mismatches
from scripted_server import Answer, ScriptedServer

from clickwrap import Clickwrap, ClickwrapError, RetryPolicy

BASE_URL = "http://127.0.0.1:8080"
APP_ID = "0192f3c0-0000-7000-8000-000000000001"
EVENT_ID = "0192f3c4-5d6e-7f80-9a1b-2c3d4e5f6a7b"
APP_HEADERS = {"X-APP-ID": APP_ID, "X-APP-KEY": "ak_test_key"}
VERIFY = f"{BASE_URL}/public-client/v1/clickwrap/verify"
CERTIFICATE = f"{BASE_URL}/public-client/v1/clickwrap-events/{EVENT_ID}/certificate"
SIGNING_CERTIFICATE = f"{BASE_URL}/public-client/v1/signing-certificate"
PEM = b"-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"
# A PDF's first bytes: not UTF-8, so the check must take the body as bytes.
PDF = b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n"
ATTACHMENT = {"Content-Disposition": f'attachment; filename="certificate-{EVENT_ID}.pdf"'}
ALREADY_VERIFIED = {
    "type": "about:blank",
    "title": "Conflict",
    "status": 409,
    "detail": "already verified",
    "message": "already verified",
    "code": "SIGNATURE_ALREADY_VERIFIED",
    "clickwrapEventId": EVENT_ID,
}


def verify_request(body: object = None, headers: dict[str, str] = APP_HEADERS) -> httpx.Request:
    return httpx.Request("POST", VERIFY, headers=headers, json=body or {"serviceSignature": "signature-1"})


def answer(status: int, body: bytes | dict, content_type: str, headers: dict[str, str] | None = None) -> httpx.Response:
    content = json.dumps(body).encode() if isinstance(body, dict) else body
    return httpx.Response(status, content=content, headers={"Content-Type": content_type, **(headers or {})})


def problem(**changes: object) -> httpx.Response:
    return answer(409, {**ALREADY_VERIFIED, **changes}, "application/problem+json")


def test_exchanges_as_the_document_declares_them_pass_binaries_included():
    assert mismatches(verify_request(), problem()) == []
    with_charset = answer(409, ALREADY_VERIFIED, "application/problem+json; charset=utf-8")
    assert mismatches(verify_request(), with_charset) == []
    certificate = httpx.Request("GET", CERTIFICATE, headers=APP_HEADERS)
    assert mismatches(certificate, answer(200, PDF, "application/pdf", ATTACHMENT)) == []
    signer = httpx.Request("GET", SIGNING_CERTIFICATE)
    assert mismatches(signer, answer(200, PEM, "application/x-pem-file")) == []


def test_a_problem_answer_that_violates_the_document_is_named():
    without_event = ALREADY_VERIFIED.copy()
    del without_event["clickwrapEventId"]
    [missing] = mismatches(verify_request(), answer(409, without_event, "application/problem+json"))
    assert missing.startswith("POST /public-client/v1/clickwrap/verify → 409 application/problem+json: ")
    assert "'clickwrapEventId' is a required property" in missing

    [wrong] = mismatches(verify_request(), problem(code="NOT_A_CODE", clickwrapEventId="not-a-uuid"))
    assert "/code " in wrong
    assert "/clickwrapEventId " in wrong


def test_an_undeclared_status_media_type_or_header_is_named():
    certificate = httpx.Request("GET", CERTIFICATE, headers=APP_HEADERS)
    [status] = mismatches(certificate, answer(418, b"", "application/pdf"))
    assert "ResponseNotFound" in status
    [media_type] = mismatches(certificate, answer(200, b"<p>certificate</p>", "text/html", ATTACHMENT))
    assert "text/html" in media_type
    [header] = mismatches(certificate, answer(200, PDF, "application/pdf"))
    assert "Content-Disposition" in header


def test_a_request_that_violates_the_document_is_named():
    [body] = mismatches(verify_request({"serviceSignature": 5}), problem())
    assert body.startswith("POST /public-client/v1/clickwrap/verify (request): ")
    assert "/serviceSignature 5 is not of type 'string'" in body

    [credentials] = mismatches(verify_request(headers={"X-APP-ID": APP_ID}), problem())
    assert "(request): Security" in credentials

    nowhere = httpx.Request("GET", f"{BASE_URL}/public-client/v1/nowhere")
    assert all("PathNotFound" in found for found in mismatches(nowhere, answer(200, {}, "application/json")))


def test_a_webhook_that_violates_the_document_is_named():
    headers = {"Content-Type": "application/json", "X-Service-Signature": "md5=abc", "X-Service-Timestamp": "1"}
    standard = {"webhook-id": "msg_1", "webhook-timestamp": "1", "webhook-signature": "v1," + "A" * 43 + "="}
    [signature, body] = webhook_mismatches({**headers, **standard}, b"{}")
    assert "X-Service-Signature" in signature
    assert "is a required property" in body
    # The Standard Webhooks headers are documented too: without them, each is named.
    missing = webhook_mismatches(headers, b"{}")
    for name in standard:
        assert any(name in mismatch for mismatch in missing), (name, missing)


def test_the_recorder_checks_what_a_watched_client_exchanged_problems_included():
    # Documented: 200 with an event. Not documented: a 409 without the event it must name.
    verified = {
        "clickwrapEventStatus": "ACCEPTED",
        "clickwrapEventId": EVENT_ID,
        "clickwrapTemplateId": "0192f3c0-1a2b-7c3d-8e4f-5a6b7c8d9e0f",
        "clickwrapTemplateVersion": 1,
        "clickwrapTemplateVersionMinor": 0,
        "endUserId": "user-42",
        "templatePlaceholders": None,
        "technicalMetadata": "{}",
        "actionAt": "2026-11-22T07:15:03.123Z",
        "effectiveAt": "2026-11-01T00:00:00.000Z",
    }
    without_event = {key: value for key, value in ALREADY_VERIFIED.items() if key != "clickwrapEventId"}
    traffic = TrafficRecorder()
    script = [Answer(200, verified), Answer(409, without_event)]
    with ScriptedServer(script) as server:
        client = Clickwrap(server.url, app_id=APP_ID, app_key="ak_test_key", retry=RetryPolicy(max_attempts=1))
        with traffic.watch(client):
            client.verify_signature("signature-1")
            with pytest.raises(ClickwrapError):
                client.verify_signature("signature-1")

    assert [response.status_code for _, response in traffic.exchanges] == [200, 409]
    with pytest.raises(AssertionError) as failed:
        traffic.assert_matches_document(at_least=2)
    assert "1 mismatches" in str(failed.value)
    assert "→ 409 application/problem+json" in str(failed.value)
    assert "'clickwrapEventId' is a required property" in str(failed.value)
