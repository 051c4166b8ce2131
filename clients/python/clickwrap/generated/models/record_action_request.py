from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.action import Action
from ..types import UNSET, Unset
from typing import cast
from uuid import UUID
import datetime

if TYPE_CHECKING:
  from ..models.presentation import Presentation
  from ..models.record_action_request_client_metadata_type_0 import RecordActionRequestClientMetadataType0
  from ..models.template_placeholders import TemplatePlaceholders





T = TypeVar("T", bound="RecordActionRequest")



@_attrs_define
class RecordActionRequest:
    """ 
        Attributes:
            app_id (UUID):
            clickwrap_template_id (UUID):
            clickwrap_template_version (int):
            clickwrap_template_version_minor (int):
            end_user_id (str): The caller's identifier of the end user: 1 to 256 characters, no control characters.
            action (Action): What the end user did: accepted or declined the agreement.
            language (str): The language shown (a supported language tag).
            content_hash (str): `sha256:` and the lowercase hex SHA-256 of the rendered content's UTF-8 bytes.
            presented_at (datetime.datetime): RFC 3339, UTC with `Z`, millisecond precision.
            presentation (Presentation): How the clickwrap was presented.
            template_placeholders (None | TemplatePlaceholders | Unset):
            client_metadata (None | RecordActionRequestClientMetadataType0 | Unset): Client-side metadata (screen, time
                zone, device …), at most 8 KiB of JSON; stored in `technicalMetadata`.
     """

    app_id: UUID
    clickwrap_template_id: UUID
    clickwrap_template_version: int
    clickwrap_template_version_minor: int
    end_user_id: str
    action: Action
    language: str
    content_hash: str
    presented_at: datetime.datetime
    presentation: Presentation
    template_placeholders: None | TemplatePlaceholders | Unset = UNSET
    client_metadata: None | RecordActionRequestClientMetadataType0 | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.presentation import Presentation # noqa: PLC0415
        from ..models.record_action_request_client_metadata_type_0 import RecordActionRequestClientMetadataType0 # noqa: PLC0415
        from ..models.template_placeholders import TemplatePlaceholders # noqa: PLC0415
        app_id = str(self.app_id)

        clickwrap_template_id = str(self.clickwrap_template_id)

        clickwrap_template_version = self.clickwrap_template_version

        clickwrap_template_version_minor = self.clickwrap_template_version_minor

        end_user_id = self.end_user_id

        action = self.action.value

        language = self.language

        content_hash = self.content_hash

        presented_at = self.presented_at.isoformat()

        presentation = self.presentation.to_dict()

        template_placeholders: dict[str, Any] | None | Unset
        if isinstance(self.template_placeholders, Unset):
            template_placeholders = UNSET
        elif isinstance(self.template_placeholders, TemplatePlaceholders):
            template_placeholders = self.template_placeholders.to_dict()
        else:
            template_placeholders = self.template_placeholders

        client_metadata: dict[str, Any] | None | Unset
        if isinstance(self.client_metadata, Unset):
            client_metadata = UNSET
        elif isinstance(self.client_metadata, RecordActionRequestClientMetadataType0):
            client_metadata = self.client_metadata.to_dict()
        else:
            client_metadata = self.client_metadata


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "appId": app_id,
            "clickwrapTemplateId": clickwrap_template_id,
            "clickwrapTemplateVersion": clickwrap_template_version,
            "clickwrapTemplateVersionMinor": clickwrap_template_version_minor,
            "endUserId": end_user_id,
            "action": action,
            "language": language,
            "contentHash": content_hash,
            "presentedAt": presented_at,
            "presentation": presentation,
        })
        if template_placeholders is not UNSET:
            field_dict["templatePlaceholders"] = template_placeholders
        if client_metadata is not UNSET:
            field_dict["clientMetadata"] = client_metadata

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.presentation import Presentation # noqa: PLC0415
        from ..models.record_action_request_client_metadata_type_0 import RecordActionRequestClientMetadataType0 # noqa: PLC0415
        from ..models.template_placeholders import TemplatePlaceholders # noqa: PLC0415
        d = dict(src_dict)
        app_id = UUID(d.pop("appId"))




        clickwrap_template_id = UUID(d.pop("clickwrapTemplateId"))




        clickwrap_template_version = d.pop("clickwrapTemplateVersion")

        clickwrap_template_version_minor = d.pop("clickwrapTemplateVersionMinor")

        end_user_id = d.pop("endUserId")

        action = Action(d.pop("action"))




        language = d.pop("language")

        content_hash = d.pop("contentHash")

        presented_at = datetime.datetime.fromisoformat(d.pop("presentedAt"))




        presentation = Presentation.from_dict(d.pop("presentation"))




        def _parse_template_placeholders(data: object) -> None | TemplatePlaceholders | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                template_placeholders_type_0 = TemplatePlaceholders.from_dict(data)



                return template_placeholders_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TemplatePlaceholders | Unset, data)

        template_placeholders = _parse_template_placeholders(d.pop("templatePlaceholders", UNSET))


        def _parse_client_metadata(data: object) -> None | RecordActionRequestClientMetadataType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                client_metadata_type_0 = RecordActionRequestClientMetadataType0.from_dict(data)



                return client_metadata_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | RecordActionRequestClientMetadataType0 | Unset, data)

        client_metadata = _parse_client_metadata(d.pop("clientMetadata", UNSET))


        record_action_request = cls(
            app_id=app_id,
            clickwrap_template_id=clickwrap_template_id,
            clickwrap_template_version=clickwrap_template_version,
            clickwrap_template_version_minor=clickwrap_template_version_minor,
            end_user_id=end_user_id,
            action=action,
            language=language,
            content_hash=content_hash,
            presented_at=presented_at,
            presentation=presentation,
            template_placeholders=template_placeholders,
            client_metadata=client_metadata,
        )


        record_action_request.additional_properties = d
        return record_action_request

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
