""" Contains all the data models used in inputs/outputs """

from .action import Action
from .agreement_mode import AgreementMode
from .app import App
from .app_created import AppCreated
from .app_list import AppList
from .audit_action import AuditAction
from .audit_entry import AuditEntry
from .audit_entry_details import AuditEntryDetails
from .audit_entry_page import AuditEntryPage
from .audit_entry_subject_type import AuditEntrySubjectType
from .available_template import AvailableTemplate
from .available_template_list import AvailableTemplateList
from .button_style import ButtonStyle
from .buttons import Buttons
from .clickwrap_event import ClickwrapEvent
from .clickwrap_event_withdrawn_data import ClickwrapEventWithdrawnData
from .clickwrap_event_withdrawn_webhook import ClickwrapEventWithdrawnWebhook
from .clickwrap_view import ClickwrapView
from .consent_status import ConsentStatus
from .consent_status_item import ConsentStatusItem
from .consent_status_value import ConsentStatusValue
from .consistency_proof import ConsistencyProof
from .console_asset_file import ConsoleAssetFile
from .console_create_app_body import ConsoleCreateAppBody
from .console_create_operator_token_body import ConsoleCreateOperatorTokenBody
from .console_create_template_body import ConsoleCreateTemplateBody
from .console_dialog_view import ConsoleDialogView
from .console_dialog_view_customizations import ConsoleDialogViewCustomizations
from .console_disable_template_body import ConsoleDisableTemplateBody
from .console_enable_template_body import ConsoleEnableTemplateBody
from .console_login_body import ConsoleLoginBody
from .console_logout_body import ConsoleLogoutBody
from .console_preview_body import ConsolePreviewBody
from .console_publish_version_body import ConsolePublishVersionBody
from .console_redeliver_webhook_body import ConsoleRedeliverWebhookBody
from .console_regenerate_app_key_body import ConsoleRegenerateAppKeyBody
from .console_revoke_operator_token_body import ConsoleRevokeOperatorTokenBody
from .console_rotate_webhook_secret_body import ConsoleRotateWebhookSecretBody
from .console_save_customizations_body import ConsoleSaveCustomizationsBody
from .console_save_draft_body import ConsoleSaveDraftBody
from .console_template_apps_body import ConsoleTemplateAppsBody
from .console_template_settings_body import ConsoleTemplateSettingsBody
from .console_update_app_body import ConsoleUpdateAppBody
from .create_app_request import CreateAppRequest
from .create_operator_token_request import CreateOperatorTokenRequest
from .create_template_request import CreateTemplateRequest
from .customizations import Customizations
from .demo_verified_event import DemoVerifiedEvent
from .dialog_text_overrides_type_0 import DialogTextOverridesType0
from .dialog_texts import DialogTexts
from .draft_request import DraftRequest
from .end_user_erased_data import EndUserErasedData
from .end_user_erased_webhook import EndUserErasedWebhook
from .event_details import EventDetails
from .event_page import EventPage
from .export_format import ExportFormat
from .field_error import FieldError
from .health import Health
from .health_status import HealthStatus
from .inclusion_proof import InclusionProof
from .inclusion_proof_evidence_record_type_0 import InclusionProofEvidenceRecordType0
from .language import Language
from .localized_content import LocalizedContent
from .openapi_response_200 import OpenapiResponse200
from .operator_role import OperatorRole
from .operator_token import OperatorToken
from .operator_token_created import OperatorTokenCreated
from .operator_token_list import OperatorTokenList
from .presentation import Presentation
from .presentation_mode import PresentationMode
from .problem import Problem
from .problem_code import ProblemCode
from .publish_request import PublishRequest
from .published_version import PublishedVersion
from .re_accept_request import ReAcceptRequest
from .re_accept_response import ReAcceptResponse
from .re_accept_response_results_item import ReAcceptResponseResultsItem
from .re_accept_response_results_item_status import ReAcceptResponseResultsItemStatus
from .reacceptance_deadline_passed_data import ReacceptanceDeadlinePassedData
from .reacceptance_deadline_passed_webhook import ReacceptanceDeadlinePassedWebhook
from .record_action_request import RecordActionRequest
from .record_action_request_client_metadata_type_0 import RecordActionRequestClientMetadataType0
from .record_action_response import RecordActionResponse
from .regenerate_app_key import RegenerateAppKey
from .regenerated_app_key import RegeneratedAppKey
from .rendered_content import RenderedContent
from .signature_already_verified_problem import SignatureAlreadyVerifiedProblem
from .template import Template
from .template_apps_request import TemplateAppsRequest
from .template_customizations import TemplateCustomizations
from .template_customizations_buttons_type_0 import TemplateCustomizationsButtonsType0
from .template_customizations_texts_type_0 import TemplateCustomizationsTextsType0
from .template_customizations_theme_type_0 import TemplateCustomizationsThemeType0
from .template_draft import TemplateDraft
from .template_list import TemplateList
from .template_placeholders import TemplatePlaceholders
from .template_placeholders_custom_placeholders_type_0 import TemplatePlaceholdersCustomPlaceholdersType0
from .template_version import TemplateVersion
from .template_version_effective_data import TemplateVersionEffectiveData
from .template_version_effective_webhook import TemplateVersionEffectiveWebhook
from .template_version_with_content import TemplateVersionWithContent
from .theme import Theme
from .tree_head import TreeHead
from .update_app_request import UpdateAppRequest
from .update_template_request import UpdateTemplateRequest
from .usage import Usage
from .verified_event import VerifiedEvent
from .verify_request import VerifyRequest
from .version_kind import VersionKind
from .version_state import VersionState
from .webhook_attempt import WebhookAttempt
from .webhook_attempt_error import WebhookAttemptError
from .webhook_delivery import WebhookDelivery
from .webhook_delivery_page import WebhookDeliveryPage
from .webhook_event_type import WebhookEventType
from .webhook_payload import WebhookPayload
from .webhook_signing_secret import WebhookSigningSecret
from .webhook_state import WebhookState
from .webhook_summary import WebhookSummary
from .webhook_test_data import WebhookTestData
from .webhook_test_webhook import WebhookTestWebhook

__all__ = (
    "Action",
    "AgreementMode",
    "App",
    "AppCreated",
    "AppList",
    "AuditAction",
    "AuditEntry",
    "AuditEntryDetails",
    "AuditEntryPage",
    "AuditEntrySubjectType",
    "AvailableTemplate",
    "AvailableTemplateList",
    "Buttons",
    "ButtonStyle",
    "ClickwrapEvent",
    "ClickwrapEventWithdrawnData",
    "ClickwrapEventWithdrawnWebhook",
    "ClickwrapView",
    "ConsentStatus",
    "ConsentStatusItem",
    "ConsentStatusValue",
    "ConsistencyProof",
    "ConsoleAssetFile",
    "ConsoleCreateAppBody",
    "ConsoleCreateOperatorTokenBody",
    "ConsoleCreateTemplateBody",
    "ConsoleDialogView",
    "ConsoleDialogViewCustomizations",
    "ConsoleDisableTemplateBody",
    "ConsoleEnableTemplateBody",
    "ConsoleLoginBody",
    "ConsoleLogoutBody",
    "ConsolePreviewBody",
    "ConsolePublishVersionBody",
    "ConsoleRedeliverWebhookBody",
    "ConsoleRegenerateAppKeyBody",
    "ConsoleRevokeOperatorTokenBody",
    "ConsoleRotateWebhookSecretBody",
    "ConsoleSaveCustomizationsBody",
    "ConsoleSaveDraftBody",
    "ConsoleTemplateAppsBody",
    "ConsoleTemplateSettingsBody",
    "ConsoleUpdateAppBody",
    "CreateAppRequest",
    "CreateOperatorTokenRequest",
    "CreateTemplateRequest",
    "Customizations",
    "DemoVerifiedEvent",
    "DialogTextOverridesType0",
    "DialogTexts",
    "DraftRequest",
    "EndUserErasedData",
    "EndUserErasedWebhook",
    "EventDetails",
    "EventPage",
    "ExportFormat",
    "FieldError",
    "Health",
    "HealthStatus",
    "InclusionProof",
    "InclusionProofEvidenceRecordType0",
    "Language",
    "LocalizedContent",
    "OpenapiResponse200",
    "OperatorRole",
    "OperatorToken",
    "OperatorTokenCreated",
    "OperatorTokenList",
    "Presentation",
    "PresentationMode",
    "Problem",
    "ProblemCode",
    "PublishedVersion",
    "PublishRequest",
    "ReacceptanceDeadlinePassedData",
    "ReacceptanceDeadlinePassedWebhook",
    "ReAcceptRequest",
    "ReAcceptResponse",
    "ReAcceptResponseResultsItem",
    "ReAcceptResponseResultsItemStatus",
    "RecordActionRequest",
    "RecordActionRequestClientMetadataType0",
    "RecordActionResponse",
    "RegenerateAppKey",
    "RegeneratedAppKey",
    "RenderedContent",
    "SignatureAlreadyVerifiedProblem",
    "Template",
    "TemplateAppsRequest",
    "TemplateCustomizations",
    "TemplateCustomizationsButtonsType0",
    "TemplateCustomizationsTextsType0",
    "TemplateCustomizationsThemeType0",
    "TemplateDraft",
    "TemplateList",
    "TemplatePlaceholders",
    "TemplatePlaceholdersCustomPlaceholdersType0",
    "TemplateVersion",
    "TemplateVersionEffectiveData",
    "TemplateVersionEffectiveWebhook",
    "TemplateVersionWithContent",
    "Theme",
    "TreeHead",
    "UpdateAppRequest",
    "UpdateTemplateRequest",
    "Usage",
    "VerifiedEvent",
    "VerifyRequest",
    "VersionKind",
    "VersionState",
    "WebhookAttempt",
    "WebhookAttemptError",
    "WebhookDelivery",
    "WebhookDeliveryPage",
    "WebhookEventType",
    "WebhookPayload",
    "WebhookSigningSecret",
    "WebhookState",
    "WebhookSummary",
    "WebhookTestData",
    "WebhookTestWebhook",
)
