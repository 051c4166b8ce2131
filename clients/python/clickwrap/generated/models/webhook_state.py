from enum import StrEnum

class WebhookState(StrEnum):
    DELIVERED = "DELIVERED"
    DISABLED = "DISABLED"
    FAILED = "FAILED"
    PENDING = "PENDING"

    def __str__(self) -> str:
        return str(self.value)
