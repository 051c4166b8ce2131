from enum import StrEnum

class WebhookDeliveryEventType(StrEnum):
    CLICKWRAP_EVENT_VERIFIED = "CLICKWRAP_EVENT_VERIFIED"

    def __str__(self) -> str:
        return str(self.value)
