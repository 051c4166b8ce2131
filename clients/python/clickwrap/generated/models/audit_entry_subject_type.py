from enum import StrEnum

class AuditEntrySubjectType(StrEnum):
    APP = "app"
    OPERATORTOKEN = "operatorToken"
    TEMPLATE = "template"
    WEBHOOKDELIVERY = "webhookDelivery"

    def __str__(self) -> str:
        return str(self.value)
