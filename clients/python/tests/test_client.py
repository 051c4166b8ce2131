"""The Clickwrap facade against a local scripted server: credentials, typed errors, retries, paging."""

import warnings

import httpx
import pytest
from scripted_server import TLS_DIR, Answer, ScriptedServer

from clickwrap import Clickwrap, ClickwrapError, RetryPolicy, iterate_pages

APP_ID = "0192f3c0-0000-7000-8000-000000000001"
APP_KEY = "ak_test_key"
EVENT_ID = "0192f3c4-5d6e-7f80-9a1b-2c3d4e5f6a7b"
TEMPLATE_ID = "0192f3c0-1a2b-7c3d-8e4f-5a6b7c8d9e0f"
# Short real waits: these tests go through the facade, whose transport really sleeps.
FAST = RetryPolicy(initial_backoff=0.01, max_backoff=0.01, max_retry_after=0)


def event(number: int) -> dict:
    return {
        "clickwrapEventStatus": "ACCEPTED",
        "clickwrapEventId": f"0192f3c4-5d6e-7f80-9a1b-{number:012d}",
        "clickwrapTemplateId": TEMPLATE_ID,
        "clickwrapTemplateVersion": 1,
        "clickwrapTemplateVersionMinor": 0,
        "endUserId": "user-42",
        "templatePlaceholders": None,
        "technicalMetadata": "{}",
        "presentedAt": "2026-11-22T07:15:00.000Z",
        "actionAt": "2026-11-22T07:15:03.123Z",
        "effectiveAt": "2026-11-01T00:00:00.000Z",
    }


def verified(number: int) -> dict:
    answer = event(number)
    del answer["presentedAt"]
    return answer


def clickwrap(server: ScriptedServer, retry: RetryPolicy = FAST) -> Clickwrap:
    return Clickwrap(server.url, app_id=APP_ID, app_key=APP_KEY, operator_token="op_token", retry=retry)


def test_server_side_calls_send_the_app_id_and_app_key_headers():
    with ScriptedServer([Answer(200, verified(1))]) as server, clickwrap(server) as client:
        answer = client.verify_signature("signature-1")
    assert str(answer.clickwrap_event_id) == "0192f3c4-5d6e-7f80-9a1b-000000000001"
    assert answer.clickwrap_event_status == "ACCEPTED"
    request = server.received[0]
    assert (request.method, request.path) == ("POST", "/public-client/v1/clickwrap/verify")
    assert request.headers["X-APP-ID"] == APP_ID
    assert request.headers["X-APP-KEY"] == APP_KEY
    assert "Authorization" not in request.headers
    assert request.body == b'{"serviceSignature":"signature-1"}'


def test_operator_calls_send_the_bearer_token_and_no_app_key():
    not_found = Answer(404, {"status": 404, "code": "TEMPLATE_NOT_FOUND"})
    with ScriptedServer([not_found]) as server, clickwrap(server) as client:
        with pytest.raises(ClickwrapError):
            client.enable_template(TEMPLATE_ID)
    request = server.received[0]
    assert request.path == f"/operator/v1/templates/{TEMPLATE_ID}/enable"
    assert request.headers["Authorization"] == "Bearer op_token"
    assert "X-APP-KEY" not in request.headers


def test_a_problem_answer_raises_a_typed_error_with_its_code_and_members():
    problem = {
        "type": "about:blank",
        "title": "Conflict",
        "status": 409,
        "detail": "this Signature was verified already",
        "code": "SIGNATURE_ALREADY_VERIFIED",
        "message": "this Signature was verified already",
        "clickwrapEventId": EVENT_ID,
    }
    with ScriptedServer([Answer(409, problem)]) as server, clickwrap(server) as client:
        with pytest.raises(ClickwrapError) as raised:
            client.verify_signature("signature-1")
    error = raised.value
    assert error.status == 409
    assert error.code == "SIGNATURE_ALREADY_VERIFIED"
    assert error.problem["clickwrapEventId"] == EVENT_ID
    assert "this Signature was verified already" in str(error)


def test_a_code_the_generated_enum_does_not_know_still_raises_with_that_code():
    problem = {"status": 400, "title": "Bad", "detail": "d", "code": "A_CODE_FROM_THE_FUTURE", "message": "d"}
    with ScriptedServer([Answer(400, problem)]) as server, clickwrap(server) as client:
        with pytest.raises(ClickwrapError) as raised:
            client.list_events()
    assert (raised.value.status, raised.value.code) == (400, "A_CODE_FROM_THE_FUTURE")


def test_an_answer_that_is_not_a_problem_document_raises_without_a_code():
    page = Answer(502, b"<html>Bad Gateway</html>", {"Content-Type": "text/html"})
    with ScriptedServer([page]) as server, clickwrap(server) as client:
        with pytest.raises(ClickwrapError) as raised:
            client.consent_status("user-42")
    assert (raised.value.status, raised.value.code, raised.value.problem) == (502, None, {})


def test_retries_happen_below_the_facade_and_a_final_429_raises_with_retry_after():
    limited = Answer(429, {"status": 429, "code": "RATE_LIMITED", "detail": "slow down"}, {"Retry-After": "0"})
    with ScriptedServer([limited, limited, Answer(200, verified(2))]) as server, clickwrap(server) as client:
        assert str(client.verify_signature("s").clickwrap_event_id).endswith("000000000002")
    assert len(server.received) == 3

    three_attempts = RetryPolicy(max_attempts=3, initial_backoff=0.01)
    with ScriptedServer([limited] * 3) as server, clickwrap(server, three_attempts) as client:
        with pytest.raises(ClickwrapError) as raised:
            client.verify_signature("s")
    assert (raised.value.status, raised.value.code, raised.value.retry_after) == (429, "RATE_LIMITED", "0")
    assert len(server.received) == 3


def test_iter_events_follows_the_cursor_and_keeps_the_filters():
    pages = [
        Answer(200, {"items": [event(1), event(2)], "nextPageCursor": "c/1+=="}),
        Answer(200, {"items": [event(3)], "nextPageCursor": "c2"}),
        Answer(200, {"items": [], "nextPageCursor": None}),
    ]
    with ScriptedServer(pages) as server, clickwrap(server) as client:
        events = list(client.iter_events(end_user_id="user-42", limit=2))
    assert [str(e.clickwrap_event_id)[-1] for e in events] == ["1", "2", "3"]
    paths = [request.path for request in server.received]
    assert paths[0] == "/public-client/v1/clickwrap-events?endUserId=user-42&limit=2"
    # The cursor is passed back exactly as returned (URL-encoded on the way).
    assert paths[1] == "/public-client/v1/clickwrap-events?endUserId=user-42&limit=2&nextPageCursor=c%2F1%2B%3D%3D"
    assert paths[2] == "/public-client/v1/clickwrap-events?endUserId=user-42&limit=2&nextPageCursor=c2"


def test_iterate_pages_stops_at_a_page_without_a_cursor():
    seen = []

    class Page:
        def __init__(self, items, cursor):
            self.items, self.next_page_cursor = items, cursor

    book = {None: Page([1, 2], "b"), "b": Page([3], None)}

    def fetch(next_page_cursor, kind):
        seen.append((next_page_cursor, kind))
        return book[None if not isinstance(next_page_cursor, str) else next_page_cursor]

    assert list(iterate_pages(fetch, kind="deliveries")) == [1, 2, 3]
    assert [kind for _, kind in seen] == ["deliveries", "deliveries"]

    # A cursor given to start with is where it starts.
    seen.clear()
    assert list(iterate_pages(fetch, kind="deliveries", next_page_cursor="b")) == [3]
    assert seen == [("b", "deliveries")]


def test_iterate_pages_refuses_a_page_that_points_at_itself():
    class Page:
        items = [1]
        next_page_cursor = "same"

    pages = iterate_pages(lambda next_page_cursor: Page(), next_page_cursor="same")
    assert next(pages) == 1
    try:
        next(pages)
    except RuntimeError as error:
        assert "same cursor" in str(error)
    else:
        raise AssertionError("a page pointing at itself was followed")


def test_a_ca_bundle_path_as_verify_is_trusted_without_httpx_deprecation_warnings():
    ca_file = str(TLS_DIR / "ca.pem")
    with ScriptedServer([Answer(200, {"status": "NO_DATA", "endUserId": "user-42", "items": []})], tls=True) as server:
        with warnings.catch_warnings():
            warnings.simplefilter("error", DeprecationWarning)
            with Clickwrap(server.url, app_id=APP_ID, app_key=APP_KEY, verify=ca_file) as client:
                assert client.consent_status("user-42").status == "NO_DATA"
        # Without that CA the same server is not trusted: the bundle is what made it work.
        with Clickwrap(server.url, app_id=APP_ID, app_key=APP_KEY) as client, pytest.raises(httpx.ConnectError):
            client.consent_status("user-42")


def test_the_clients_repr_does_not_show_the_app_key_or_the_operator_token():
    answers = [Answer(200, {"status": "NO_DATA", "endUserId": "user-42", "items": []})]
    with ScriptedServer(answers) as server, clickwrap(server) as client:
        client.consent_status("user-42")  # a request made: the headers now hold the key too
        shown = [repr(client.app_client), str(client.operator_client), repr(client.app_client.with_headers({"X": "1"}))]
    for text in shown:
        assert APP_KEY not in text and "op_token" not in text, text
        assert server.url in text


def test_a_missing_credential_is_named():
    with pytest.raises(ValueError, match="app_id and app_key"):
        Clickwrap("http://127.0.0.1:9", operator_token="t").verify_signature("s")
    with pytest.raises(ValueError, match="operator_token"):
        Clickwrap("http://127.0.0.1:9", app_id=APP_ID, app_key=APP_KEY).create_app("shop")
