from enum import StrEnum

class WebhookAttemptError(StrEnum):
    BLOCKED_ADDRESS = "BLOCKED_ADDRESS"
    CONNECT = "CONNECT"
    DNS = "DNS"
    PROTOCOL = "PROTOCOL"
    SIGNING_SECRET = "SIGNING_SECRET"
    TIMEOUT = "TIMEOUT"
    TLS = "TLS"
    UNEXPECTED_STATUS = "UNEXPECTED_STATUS"

    def __str__(self) -> str:
        return str(self.value)
