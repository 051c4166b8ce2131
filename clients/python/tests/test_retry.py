"""Retries on 429 and 503 against a local server that answers them, with `Retry-After` or without."""

import email.utils

import httpx
import pytest
from scripted_server import Answer, ScriptedServer

from clickwrap.retry import RetryPolicy, RetryTransport, parse_retry_after

NOW = 1_795_000_000.0
PROBLEM_429 = {"status": 429, "code": "RATE_LIMITED", "detail": "too many requests"}
PROBLEM_503 = {"status": 503, "code": "SERVICE_UNAVAILABLE", "detail": "retry later"}


def http_date(timestamp: float) -> str:
    return email.utils.formatdate(timestamp, usegmt=True)


def client_for(server: ScriptedServer, policy: RetryPolicy, waits: list[float]) -> httpx.Client:
    """An httpx client over the retrying transport that records each wait instead of sleeping."""
    transport = RetryTransport(policy, sleep=waits.append, clock=lambda: NOW)
    return httpx.Client(base_url=server.url, transport=transport)


def test_a_429_is_retried_after_the_seconds_retry_after_names():
    waits: list[float] = []
    answers = [Answer(429, PROBLEM_429, {"Retry-After": "7"}), Answer(200, {"ok": True})]
    with ScriptedServer(answers) as server, client_for(server, RetryPolicy(), waits) as client:
        response = client.get("/public-client/v1/clickwrap-events")
    assert response.status_code == 200
    assert response.json() == {"ok": True}
    assert waits == [7.0]
    assert [r.path for r in server.received] == ["/public-client/v1/clickwrap-events"] * 2


def test_a_503_is_retried_until_the_http_date_retry_after_names():
    waits: list[float] = []
    answers = [Answer(503, PROBLEM_503, {"Retry-After": http_date(NOW + 45)}), Answer(200, {"ok": True})]
    with ScriptedServer(answers) as server, client_for(server, RetryPolicy(), waits) as client:
        assert client.get("/readyz").status_code == 200
    assert waits == [45.0]


def test_without_retry_after_the_waits_grow_exponentially_and_attempts_are_bounded():
    waits: list[float] = []
    policy = RetryPolicy(max_attempts=4, initial_backoff=0.5)
    answers = [Answer(503, PROBLEM_503)] * 4 + [Answer(200, {"ok": True})]
    with ScriptedServer(answers) as server, client_for(server, policy, waits) as client:
        response = client.get("/operator/v1/usage")
    # The fourth answer is handed back: the caller sees the 503, the fifth answer is never asked for.
    assert response.status_code == 503
    assert len(server.received) == 4
    assert waits == [0.5, 1.0, 2.0]


def test_the_backoff_is_used_when_it_is_longer_than_retry_after_and_is_capped():
    waits: list[float] = []
    policy = RetryPolicy(max_attempts=4, initial_backoff=4.0, max_backoff=6.0)
    answers = [Answer(429, PROBLEM_429, {"Retry-After": "1"})] * 3 + [Answer(200, {"ok": True})]
    with ScriptedServer(answers) as server, client_for(server, policy, waits) as client:
        assert client.get("/x").status_code == 200
    assert waits == [4.0, 6.0, 6.0]


def test_a_post_is_retried_on_429_with_the_same_body():
    waits: list[float] = []
    answers = [Answer(429, PROBLEM_429, {"Retry-After": "1"}), Answer(200, {"ok": True})]
    with ScriptedServer(answers) as server, client_for(server, RetryPolicy(), waits) as client:
        response = client.post("/public-client/v1/clickwrap/verify", json={"serviceSignature": "sig"})
    assert response.status_code == 200
    assert [r.method for r in server.received] == ["POST", "POST"]
    assert server.received[0].body == server.received[1].body == b'{"serviceSignature":"sig"}'


@pytest.mark.parametrize("method", ["POST", "PATCH"])
def test_a_request_that_is_not_idempotent_is_not_retried_on_503(method):
    waits: list[float] = []
    answers = [Answer(503, PROBLEM_503, {"Retry-After": "1"}), Answer(200, {"ok": True})]
    with ScriptedServer(answers) as server, client_for(server, RetryPolicy(), waits) as client:
        response = client.request(method, "/operator/v1/apps", json={"name": "shop"})
    assert response.status_code == 503
    assert len(server.received) == 1
    assert waits == []


def test_a_retry_after_longer_than_the_policy_allows_is_not_waited_out():
    waits: list[float] = []
    answers = [Answer(429, PROBLEM_429, {"Retry-After": "3600"}), Answer(200, {"ok": True})]
    with ScriptedServer(answers) as server, client_for(server, RetryPolicy(max_retry_after=60), waits) as client:
        response = client.post("/public-client/v1/clickwrap/verify", json={"serviceSignature": "sig"})
    assert response.status_code == 429
    assert response.headers["Retry-After"] == "3600"
    assert len(server.received) == 1


@pytest.mark.parametrize("status", [400, 401, 409, 500, 502])
def test_other_errors_are_not_retried(status):
    waits: list[float] = []
    answers = [Answer(status, {"status": status, "code": "X"}), Answer(200, {"ok": True})]
    with ScriptedServer(answers) as server, client_for(server, RetryPolicy(), waits) as client:
        assert client.get("/x").status_code == status
    assert len(server.received) == 1


def test_one_attempt_turns_retries_off():
    waits: list[float] = []
    answers = [Answer(429, PROBLEM_429, {"Retry-After": "1"}), Answer(200, {"ok": True})]
    with ScriptedServer(answers) as server, client_for(server, RetryPolicy(max_attempts=1), waits) as client:
        assert client.get("/x").status_code == 429
    assert len(server.received) == 1


@pytest.mark.parametrize(
    ("header", "seconds"),
    [
        (None, None),
        ("0", 0.0),
        ("120", 120.0),
        (" 5 ", 5.0),
        (http_date(NOW + 90), 90.0),
        (http_date(NOW - 90), 0.0),  # a date already past: go now
        ("-5", None),
        ("1.5", None),
        ("soon", None),
        ("Mon, 99 Foo 2026 25:61:61 GMT", None),
    ],
)
def test_retry_after_is_read_as_seconds_or_an_http_date(header, seconds):
    assert parse_retry_after(header, NOW) == seconds
