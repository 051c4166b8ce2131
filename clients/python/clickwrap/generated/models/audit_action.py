from enum import StrEnum

class AuditAction(StrEnum):
    APP_APPKEYREGENERATED = "app.appKeyRegenerated"
    APP_CREATED = "app.created"
    APP_UPDATED = "app.updated"
    APP_WEBHOOKSIGNINGSECRETROTATED = "app.webhookSigningSecretRotated"
    OPERATORTOKEN_CREATED = "operatorToken.created"
    OPERATORTOKEN_REVOKED = "operatorToken.revoked"
    TEMPLATE_APPSSET = "template.appsSet"
    TEMPLATE_CREATED = "template.created"
    TEMPLATE_CUSTOMIZATIONSSET = "template.customizationsSet"
    TEMPLATE_DISABLED = "template.disabled"
    TEMPLATE_DRAFTSAVED = "template.draftSaved"
    TEMPLATE_ENABLED = "template.enabled"
    TEMPLATE_UPDATED = "template.updated"
    TEMPLATE_VERSIONPUBLISHED = "template.versionPublished"
    WEBHOOKDELIVERY_REDELIVERED = "webhookDelivery.redelivered"

    def __str__(self) -> str:
        return str(self.value)
