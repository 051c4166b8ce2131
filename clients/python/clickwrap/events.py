"""Every webhook event type the service sends and the body each has, as typed dictionaries.

A webhook body is `{"eventType", "timestamp", "data"}`: the type, when the message was made (RFC
3339, the same on every attempt), and the type's data. `verify_webhook` and
`verify_standard_webhook` return a `WebhookEvent`; narrow it on `event["eventType"]`. The service's
OpenAPI document (docs/openapi.json, `webhooks`) has one entry per type; a test keeps the two in step.
Only `CLICKWRAP_EVENT_VERIFIED` is sent today.
"""

from __future__ import annotations

from typing import Literal, TypedDict

EventType = Literal[
    "CLICKWRAP_EVENT_VERIFIED",
    "CLICKWRAP_EVENT_WITHDRAWN",
    "TEMPLATE_VERSION_EFFECTIVE",
    "REACCEPTANCE_DEADLINE_PASSED",
    "END_USER_ERASED",
    "WEBHOOK_TEST",
]

EVENT_TYPES: tuple[EventType, ...] = (
    "CLICKWRAP_EVENT_VERIFIED",
    "CLICKWRAP_EVENT_WITHDRAWN",
    "TEMPLATE_VERSION_EFFECTIVE",
    "REACCEPTANCE_DEADLINE_PASSED",
    "END_USER_ERASED",
    "WEBHOOK_TEST",
)


class ClickwrapEventVerifiedData(TypedDict):
    """The spec's ten fields of a verified event."""

    clickwrapEventId: str
    clickwrapTemplateId: str
    clickwrapTemplateVersion: int
    clickwrapTemplateVersionMinor: int
    endUserId: str
    templatePlaceholders: str | None
    technicalMetadata: str
    actionAt: str
    effectiveAt: str
    clickwrapEventStatus: str


class ClickwrapEventWithdrawnData(ClickwrapEventVerifiedData):
    """A withdrawal: its event's fields, and the acceptance it ends."""

    withdraws: str


class TemplateVersionEffectiveData(TypedDict):
    clickwrapTemplateId: str
    clickwrapTemplateVersion: int
    clickwrapTemplateVersionMinor: int
    effectiveAt: str
    requireReacceptance: bool
    acceptBy: str | None


class ReacceptanceDeadlinePassedData(TypedDict):
    clickwrapTemplateId: str
    clickwrapTemplateVersion: int
    clickwrapTemplateVersionMinor: int
    acceptBy: str
    required: int
    accepted: int
    declined: int
    withdrawn: int
    outstanding: int


class EndUserErasedData(TypedDict):
    endUserId: str
    erasedAt: str
    events: int


class WebhookTestData(TypedDict):
    webhookEndpointId: str
    sentAt: str


class ClickwrapEventVerified(TypedDict):
    eventType: Literal["CLICKWRAP_EVENT_VERIFIED"]
    timestamp: str
    data: ClickwrapEventVerifiedData


class ClickwrapEventWithdrawn(TypedDict):
    eventType: Literal["CLICKWRAP_EVENT_WITHDRAWN"]
    timestamp: str
    data: ClickwrapEventWithdrawnData


class TemplateVersionEffective(TypedDict):
    eventType: Literal["TEMPLATE_VERSION_EFFECTIVE"]
    timestamp: str
    data: TemplateVersionEffectiveData


class ReacceptanceDeadlinePassed(TypedDict):
    eventType: Literal["REACCEPTANCE_DEADLINE_PASSED"]
    timestamp: str
    data: ReacceptanceDeadlinePassedData


class EndUserErased(TypedDict):
    eventType: Literal["END_USER_ERASED"]
    timestamp: str
    data: EndUserErasedData


class WebhookTest(TypedDict):
    eventType: Literal["WEBHOOK_TEST"]
    timestamp: str
    data: WebhookTestData


WebhookEvent = (
    ClickwrapEventVerified
    | ClickwrapEventWithdrawn
    | TemplateVersionEffective
    | ReacceptanceDeadlinePassed
    | EndUserErased
    | WebhookTest
)

# Each type's body and data, for code that looks types up by name (and for the test that compares
# them with the OpenAPI document).
EVENT_BODIES: dict[EventType, type] = {
    "CLICKWRAP_EVENT_VERIFIED": ClickwrapEventVerified,
    "CLICKWRAP_EVENT_WITHDRAWN": ClickwrapEventWithdrawn,
    "TEMPLATE_VERSION_EFFECTIVE": TemplateVersionEffective,
    "REACCEPTANCE_DEADLINE_PASSED": ReacceptanceDeadlinePassed,
    "END_USER_ERASED": EndUserErased,
    "WEBHOOK_TEST": WebhookTest,
}
