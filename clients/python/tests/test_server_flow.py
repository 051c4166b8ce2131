"""The operator's whole flow through the library, against a real clickwrap-server.

Needs a running server: CLICKWRAP_BASE_URL (its root), CLICKWRAP_OPERATOR_TOKEN, and for the
demo app's test CLICKWRAP_APP_ID, CLICKWRAP_APP_KEY and CLICKWRAP_TEMPLATE_ID, as
`clickwrap-server demo` prints them. The webhook test also needs the server started with
CLICKWRAP_WEBHOOK_ALLOW_CIDRS=127.0.0.0/8 and CLICKWRAP_WEBHOOK_CA_FILE=<this folder>/tls/ca.pem.
Without CLICKWRAP_BASE_URL every test here is skipped.

Every request the library sends and every answer it gets, and the webhook the service sends, are
checked against docs/openapi.json with openapi-core (tests/openapi_check.py): each test ends by
failing on any mismatch.
"""

from __future__ import annotations

import hashlib
import json
import os
import queue
import time
import uuid
from datetime import UTC, datetime

import pytest
from openapi_check import TrafficRecorder, webhook_mismatches
from standardwebhooks import Webhook
from webhook_receiver import CA_FILE, Delivery, WebhookReceiver

from clickwrap import Clickwrap, ClickwrapError, event_id, verify_standard_webhook, verify_webhook
from clickwrap.generated.api.operator import list_webhook_deliveries, redeliver_webhook
from clickwrap.generated.api.public_client import get_clickwrap, get_signing_certificate, record_clickwrap_action
from clickwrap.generated.models import (
    Action,
    ClickwrapView,
    Presentation,
    PresentationMode,
    RecordActionRequest,
    RecordActionResponse,
    WebhookDelivery,
    WebhookDeliveryPage,
)

BASE_URL = os.environ.get("CLICKWRAP_BASE_URL")
pytestmark = pytest.mark.skipif(not BASE_URL, reason="CLICKWRAP_BASE_URL is not set: no server to test against")

# The longest wait for the webhook: the service usually sends it within milliseconds of the verify.
WEBHOOK_WAIT_SECONDS = 60


def env(name: str) -> str:
    value = os.environ.get(name)
    if not value:
        pytest.fail(f"{name} is not set (CLICKWRAP_BASE_URL is): set the variables clickwrap-server demo prints")
    return value


def unique(prefix: str) -> str:
    """Names and end users of their own, so that the tests can run again against the same server."""
    return f"{prefix}-{uuid.uuid4().hex[:12]}"


@pytest.fixture
def traffic() -> TrafficRecorder:
    return TrafficRecorder()


@pytest.fixture
def operator(traffic):
    with traffic.watch(Clickwrap(BASE_URL, operator_token=env("CLICKWRAP_OPERATOR_TOKEN"))) as client:
        yield client


def sdk_side_request(public: Clickwrap, app_id: str, template_id: str, end_user_id: str, action: Action) -> str:
    """What the browser SDK does when the end user acts (crates/web-sdk/clickwrap.js, `show` then
    `record`): fetch the clickwrap, then record the action; returns the Signature."""
    view = get_clickwrap.sync(
        client=public.public_client,
        app_id=uuid.UUID(app_id),
        clickwrap_template_id=uuid.UUID(template_id),
        end_user_id=end_user_id,
        language="en",
    )
    assert isinstance(view, ClickwrapView)
    assert view.acceptance_required
    presentation = Presentation(
        mode=PresentationMode.DIALOG,
        agreement_mode=view.agreement_mode,
        accept_label=view.customizations.texts.accept_button,
        checkbox_label=None,
        scroll_required=False,
    )
    request = RecordActionRequest(
        app_id=uuid.UUID(app_id),
        clickwrap_template_id=view.clickwrap_template_id,
        clickwrap_template_version=view.clickwrap_template_version,
        clickwrap_template_version_minor=view.clickwrap_template_version_minor,
        end_user_id=end_user_id,
        action=action,
        language=str(view.language),
        template_placeholders=None,
        content_hash=view.content_hash,
        presented_at=datetime.now(UTC),
        presentation=presentation,
    )
    answer = record_clickwrap_action.sync(client=public.public_client, body=request)
    assert isinstance(answer, RecordActionResponse)
    return answer.service_signature


def published_template(operator: Clickwrap, app_id: str) -> str:
    """Steps 2 to 5 of the flow: a template, published, enabled and linked to the app."""
    template = operator.create_template(unique("Terms"), {"en": "<h1>Terms</h1><p>Be kind to each other.</p>"})
    template_id = str(template.clickwrap_template_id)
    version = operator.publish_version(template_id)
    assert (version.clickwrap_template_version, version.clickwrap_template_version_minor) == (1, 0)
    assert operator.enable_template(template_id).enabled
    linked = operator.link_template(template_id, [app_id])
    assert [str(linked_app) for linked_app in linked.app_ids] == [app_id]
    return template_id


def test_the_operators_whole_flow_through_the_library(operator, traffic):
    # 1. An app.
    app = operator.create_app(unique("Python client flow"))
    app_id = str(app.app_id)
    backend = traffic.watch(Clickwrap(BASE_URL, app_id=app_id, app_key=app.app_key))

    # 2-5. A template, published, enabled, linked to the app.
    template_id = published_template(operator, app_id)

    # 6. The SDK-side request: the end user accepts in the browser, the SDK gets a Signature.
    end_user = unique("python-user")
    signature = sdk_side_request(backend, app_id, template_id, end_user, Action.ACCEPTED)

    # 7. The backend verifies it.
    event = backend.verify_signature(signature)
    assert event.clickwrap_event_status == Action.ACCEPTED
    assert event.end_user_id == end_user
    assert str(event.clickwrap_template_id) == template_id
    event_id = str(event.clickwrap_event_id)

    # 8. Verifying it again is refused with a typed problem naming the event.
    with pytest.raises(ClickwrapError) as again:
        backend.verify_signature(signature)
    assert again.value.status == 409
    assert again.value.code == "SIGNATURE_ALREADY_VERIFIED"
    assert again.value.problem["clickwrapEventId"] == event_id

    # 9. The events list has it (through the cursor helper).
    listed = list(backend.iter_events(end_user_id=end_user))
    assert [str(item.clickwrap_event_id) for item in listed] == [event_id]

    # 10. Its details say what was shown.
    details = backend.event_details(event_id)
    assert details.content_hash.startswith("sha256:")
    assert "Be kind to each other." in details.content
    assert details.clickwrap_event_status == Action.ACCEPTED

    # 11. The certificate is the PDF whose hash the details hold.
    certificate = backend.certificate(event_id)
    assert certificate.startswith(b"%PDF-")
    assert hashlib.sha256(certificate).hexdigest() == details.certificate_sha_256
    # The agreement is the content as shown with the certificate appended: another, longer PDF.
    agreement = backend.agreement(event_id)
    assert agreement.startswith(b"%PDF-")
    assert len(agreement) > len(certificate)
    # The certificate that signs them: PEM, for anyone.
    signer = get_signing_certificate.sync(client=backend.public_client)
    assert isinstance(signer, str)
    assert signer.startswith("-----BEGIN CERTIFICATE-----")

    # 12. The end user's consent status.
    status = backend.consent_status(end_user, template_id)
    assert status.status == "ACCEPTED"
    assert [str(item.clickwrap_event_id) for item in status.items] == [event_id]

    # 13. A new App Key: the old one fails at once, the new one works.
    new_key = operator.regenerate_app_key(app_id)
    assert new_key != app.app_key
    with pytest.raises(ClickwrapError) as refused:
        backend.consent_status(end_user)
    assert (refused.value.status, refused.value.code) == (401, "UNAUTHORIZED")
    with traffic.watch(Clickwrap(BASE_URL, app_id=app_id, app_key=new_key)) as renewed:
        assert renewed.consent_status(end_user, template_id).status == "ACCEPTED"
    backend.close()

    # 14. Everything said on the way, problems included, is as docs/openapi.json describes it.
    traffic.assert_matches_document(at_least=18)


def test_a_webhook_of_a_verification_is_checked_by_verify_webhook(operator, traffic):
    with WebhookReceiver() as receiver:
        app = operator.create_app(unique("Python client webhook"), webhook_url=receiver.url)
        app_id = str(app.app_id)
        template_id = published_template(operator, app_id)
        end_user = unique("python-webhook-user")
        with traffic.watch(Clickwrap(BASE_URL, app_id=app_id, app_key=app.app_key)) as backend:
            signature = sdk_side_request(backend, app_id, template_id, end_user, Action.ACCEPTED)
            event_id = str(backend.verify_signature(signature).clickwrap_event_id)

        delivery = receive_webhook(receiver, operator, app_id)

    webhook = verify_webhook(delivery.body, delivery.headers, app.webhook_signing_secret)
    assert webhook["eventType"] == "CLICKWRAP_EVENT_VERIFIED"
    assert webhook["data"]["clickwrapEventId"] == event_id
    assert webhook["data"]["endUserId"] == end_user
    assert webhook["data"]["clickwrapEventStatus"] == "ACCEPTED"

    # The same request checked with another app's secret is refused.
    with pytest.raises(ValueError):
        verify_webhook(delivery.body, delivery.headers, "whsec_not-this-apps-secret")

    assert webhook_mismatches(delivery.headers, delivery.body) == []
    traffic.assert_matches_document(at_least=8)


def test_the_official_standardwebhooks_library_verifies_real_deliveries_and_retries_keep_the_id(operator, traffic):
    """The official `standardwebhooks` package from PyPI, unchanged, given the secret exactly as the
    service showed it, verifies a real delivery, its retry (the receiver answers 500 first) and an
    operator's redelivery; all three carry the same `webhook-id` and the same body."""
    with WebhookReceiver(statuses=[500]) as receiver:
        app = operator.create_app(unique("Python standard webhooks"), webhook_url=receiver.url)
        app_id = str(app.app_id)
        template_id = published_template(operator, app_id)
        with traffic.watch(Clickwrap(BASE_URL, app_id=app_id, app_key=app.app_key)) as backend:
            signature = sdk_side_request(backend, app_id, template_id, unique("python-sw-user"), Action.ACCEPTED)
            verified_id = str(backend.verify_signature(signature).clickwrap_event_id)

        first = next_delivery(receiver, "the first attempt")
        retry = next_delivery(receiver, "the retry after the receiver's 500 (CLICKWRAP_WEBHOOK_RETRY_DELAYS=1,1,1)")
        delivery = delivered_after_attempts(operator, app_id, 2)
        redeliver_webhook.sync(delivery.delivery_id, client=operator.operator_client)
        redelivered = next_delivery(receiver, "the operator's redelivery")

    secret = app.webhook_signing_secret
    assert secret.startswith("whsec_") and len(secret) == len("whsec_") + 44, "base64 of 32 bytes"
    official = Webhook(secret)
    for delivery in (first, retry, redelivered):
        event = official.verify(delivery.body, delivery.headers)
        assert event["eventType"] == "CLICKWRAP_EVENT_VERIFIED"
        assert event["data"]["clickwrapEventId"] == verified_id
        assert event_id(delivery.headers) == f"msg_{verified_id}"
        assert delivery.body == first.body, "the same bytes on every attempt"
        assert verify_standard_webhook(delivery.body, delivery.headers, secret) == event
        assert verify_webhook(delivery.body, delivery.headers, secret) == event
        headers = {name.lower(): value for name, value in delivery.headers.items()}
        assert headers["webhook-timestamp"] == headers["x-service-timestamp"]
        assert webhook_mismatches(delivery.headers, delivery.body) == []
    # The body's own time is when the message was made, RFC 3339.
    made_at = datetime.fromisoformat(json_body(first)["timestamp"])
    assert abs((datetime.now(UTC) - made_at).total_seconds()) < 300

    # Another app's secret does not verify it.
    with pytest.raises(Exception, match="signature"):
        Webhook("whsec_" + "A" * 43 + "=").verify(first.body, first.headers)
    traffic.assert_matches_document(at_least=6)


def delivered_after_attempts(operator: Clickwrap, app_id: str, attempts: int) -> WebhookDelivery:
    """The app's one delivery once its history records it DELIVERED after `attempts` attempts (the
    service records an attempt just after the receiver answers)."""
    deadline = time.monotonic() + WEBHOOK_WAIT_SECONDS
    while True:
        page = list_webhook_deliveries.sync(uuid.UUID(app_id), client=operator.operator_client)
        assert isinstance(page, WebhookDeliveryPage) and len(page.items) == 1
        delivery = page.items[0]
        if str(delivery.state) == "DELIVERED" or time.monotonic() > deadline:
            assert (str(delivery.state), delivery.attempts) == ("DELIVERED", attempts)
            return delivery
        time.sleep(0.2)


def next_delivery(receiver: WebhookReceiver, what: str) -> Delivery:
    try:
        return receiver.deliveries.get(timeout=WEBHOOK_WAIT_SECONDS)
    except queue.Empty:
        pytest.fail(f"{what} did not arrive within {WEBHOOK_WAIT_SECONDS} s")


def json_body(delivery: Delivery) -> dict:
    return json.loads(delivery.body)


def receive_webhook(receiver: WebhookReceiver, operator: Clickwrap, app_id: str) -> Delivery:
    """The first webhook the receiver gets; fails at once, saying why, when the service's attempt
    failed (its next retry would come only a minute later)."""
    deadline = time.monotonic() + WEBHOOK_WAIT_SECONDS
    while time.monotonic() < deadline:
        try:
            return receiver.deliveries.get(timeout=0.5)
        except queue.Empty:
            pass
        errors = attempt_errors(operator, app_id)
        if errors:
            pytest.fail(f"the service could not deliver the webhook: {errors}{setting_hint(errors)}")
    pytest.fail(f"no webhook arrived within {WEBHOOK_WAIT_SECONDS} s, and no attempt failed")


def attempt_errors(operator: Clickwrap, app_id: str) -> list[str]:
    """The errors of the app's failed webhook attempts, from its delivery history."""
    page = list_webhook_deliveries.sync(uuid.UUID(app_id), client=operator.operator_client)
    assert isinstance(page, WebhookDeliveryPage)
    return [str(attempt.error) for delivery in page.items for attempt in delivery.attempt_history if attempt.error]


def setting_hint(errors: list[str]) -> str:
    """The server setting a failed attempt points to, when it points to one."""
    if "TLS" in errors:
        return f" (start the server with CLICKWRAP_WEBHOOK_CA_FILE={CA_FILE})"
    if "BLOCKED_ADDRESS" in errors:
        return " (start the server with CLICKWRAP_WEBHOOK_ALLOW_CIDRS=127.0.0.0/8)"
    return ""


def test_the_demo_apps_credentials_verify_a_declined_action(traffic):
    """The app and template `clickwrap-server demo` made, through the variables it printed."""
    app_id, template_id = env("CLICKWRAP_APP_ID"), env("CLICKWRAP_TEMPLATE_ID")
    with traffic.watch(Clickwrap(BASE_URL, app_id=app_id, app_key=env("CLICKWRAP_APP_KEY"))) as backend:
        end_user = unique("python-demo-user")
        signature = sdk_side_request(backend, app_id, template_id, end_user, Action.DECLINED)
        event = backend.verify_signature(signature)
        assert event.clickwrap_event_status == Action.DECLINED

        # A declined event has no certificate: a typed 409.
        with pytest.raises(ClickwrapError) as refused:
            backend.certificate(event.clickwrap_event_id)
        assert (refused.value.status, refused.value.code) == (409, "NOT_ACCEPTED")
        assert backend.event_details(event.clickwrap_event_id).certificate_sha_256 is None

    traffic.assert_matches_document(at_least=5)
