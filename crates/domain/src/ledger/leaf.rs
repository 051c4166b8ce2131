//! The evidence record of one verified event: what its ledger leaf is made of.
//!
//! The record holds the event's details as the API shows them, with every personal value replaced
//! by a salted commitment. Erasing a value and its salt (an end user's right to erasure) leaves the
//! record, its leaf and every proof unchanged, while whoever still holds both can show that the
//! value is the one recorded.

use ring::digest::{Context, SHA256};
use serde_json::{Value, json};

use super::canonical::{CanonicalJsonError, canonical_json};
use super::models::SALT_LEN;
use crate::consent::models::ClickwrapEvent;

/// The version of the record's layout, written into every record.
pub const LEDGER_VERSION: u64 = 1;

/// The record's names of the committed personal values.
pub const END_USER_ID: &str = "endUserId";
pub const IP_ADDRESS: &str = "ipAddress";
pub const USER_AGENT: &str = "userAgent";
pub const TEMPLATE_PLACEHOLDERS: &str = "templatePlaceholders";
pub const CLIENT_METADATA: &str = "clientMetadata";

/// `sha256:` and the hex SHA-256 of `salt || field || 0x00 || value`.
///
/// The salt makes a guessable value (an IP address, a user id) impossible to confirm from the
/// commitment alone. The field name is inside so that equal values in different fields give
/// different commitments, which would otherwise tell that, say, the user id is the IP address; the
/// `0x00` separates the name (which never contains one) from the value.
pub fn commitment(salt: &[u8; SALT_LEN], field: &str, value: &str) -> String {
    let mut context = Context::new(&SHA256);
    context.update(salt);
    context.update(field.as_bytes());
    context.update(&[0]);
    context.update(value.as_bytes());
    format!("sha256:{}", hex::encode(context.finish()))
}

/// The personal values of an event, exactly as they were committed in its record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PersonalValues {
    pub end_user_id: String,
    pub ip_address: Option<String>,
    pub user_agent: Option<String>,
    /// The canonical JSON of the placeholder values.
    pub template_placeholders: Option<String>,
    /// The canonical JSON of what the client reported about itself.
    pub client_metadata: Option<String>,
}

impl PersonalValues {
    /// Each value beside its name in the record: the commitment found under that name is
    /// `commitment(salt, name, value)`, or null when there is no value.
    pub fn fields(&self) -> [(&'static str, Option<&str>); 5] {
        [
            (END_USER_ID, Some(self.end_user_id.as_str())),
            (IP_ADDRESS, self.ip_address.as_deref()),
            (USER_AGENT, self.user_agent.as_deref()),
            (TEMPLATE_PLACEHOLDERS, self.template_placeholders.as_deref()),
            (CLIENT_METADATA, self.client_metadata.as_deref()),
        ]
    }
}

/// The personal values of `event`, in the form its record commits to.
///
/// The technical metadata is JSON text written by the service (`ipAddress`, `userAgent`, `client`);
/// it is read leniently, so that whatever a stored event holds is still committed: a value of
/// another type is left out, and text that is not a JSON object is committed whole as the client
/// metadata.
pub fn personal_values(event: &ClickwrapEvent) -> PersonalValues {
    let (ip_address, user_agent, client_metadata) = technical_values(&event.technical_metadata);
    PersonalValues {
        end_user_id: event.end_user_id.as_str().to_owned(),
        ip_address,
        user_agent,
        template_placeholders: event.template_placeholders.as_deref().map(canonical_text),
        client_metadata,
    }
}

fn technical_values(text: &str) -> (Option<String>, Option<String>, Option<String>) {
    let Ok(Value::Object(metadata)) = serde_json::from_str::<Value>(text) else {
        let whole = Some(text.to_owned()).filter(|text| !text.trim().is_empty());
        return (None, None, whole);
    };
    let text_of = |name: &str| metadata.get(name).and_then(Value::as_str).map(str::to_owned);
    let client = metadata.get("client").filter(|client| !client.is_null()).map(canonical_or_compact);
    (text_of("ipAddress"), text_of("userAgent"), client)
}

/// JSON text in canonical form; text that is not JSON is kept as it is.
fn canonical_text(text: &str) -> String {
    serde_json::from_str::<Value>(text).map_or_else(|_| text.to_owned(), |value| canonical_or_compact(&value))
}

/// The canonical form, or compact JSON when the value holds numbers the canonical form refuses
/// (a client may report fractions): either is fixed for a given stored text.
fn canonical_or_compact(value: &Value) -> String {
    canonical_json(value).unwrap_or_else(|_| value.to_string())
}

fn committed(salt: &[u8; SALT_LEN], field: &str, value: Option<&str>) -> Value {
    value.map_or(Value::Null, |value| Value::from(commitment(salt, field, value)))
}

/// The evidence record of a verified event: its details as the API names them (without the content,
/// whose hash is here), the SHA-256 of its Certificate of Acceptance, and a commitment in place of
/// each personal value.
pub fn evidence_record(event: &ClickwrapEvent, certificate_sha256: Option<&[u8; 32]>, salt: &[u8; SALT_LEN]) -> Value {
    let mut record = json!({
        "ledgerVersion": LEDGER_VERSION,
        "clickwrapEventId": event.id.to_string(),
        "tenantId": event.tenant_id.to_string(),
        "appId": event.app_id.to_string(),
        "clickwrapTemplateId": event.template_id.to_string(),
        "templateName": event.template_name,
        "clickwrapTemplateVersion": event.version.major,
        "clickwrapTemplateVersionMinor": event.version.minor,
        "effectiveAt": event.effective_at.to_rfc3339(),
        "action": event.action.as_str(),
        "clickwrapEventStatus": event.status.as_str(),
        "language": event.language.code(),
        "contentHash": event.content_hash.as_str(),
        "presentation": {
            "mode": event.presentation.mode.as_str(),
            "agreementMode": event.presentation.agreement_mode.as_str(),
            "acceptLabel": event.presentation.accept_label,
            "checkboxLabel": event.presentation.checkbox_label,
            "scrollRequired": event.presentation.scroll_required,
        },
        "presentedAt": event.presented_at.to_rfc3339(),
        "actionAt": event.action_at.to_rfc3339(),
        "verifiedAt": event.verified_at.map(|at| at.to_rfc3339()),
        "certificateSha256": certificate_sha256.map(hex::encode),
    });
    if let Value::Object(fields) = &mut record {
        for (name, value) in personal_values(event).fields() {
            fields.insert(name.to_owned(), committed(salt, name, value));
        }
    }
    record
}

/// The leaf: the record's canonical JSON in UTF-8. Its hash in the tree is
/// [`leaf_hash`](super::merkle::leaf_hash) of these bytes.
pub fn leaf_bytes(record: &Value) -> Result<Vec<u8>, CanonicalJsonError> {
    canonical_json(record).map(String::into_bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::consent::models::{Action, EventStatus, Presentation, PresentationMode};
    use crate::content::hash::ContentHash;
    use crate::ledger::merkle::leaf_hash;
    use crate::templates::customizations::AgreementMode;
    use crate::templates::versioning::VersionNumber;
    use crate::{AppId, EndUserId, EventId, Language, TemplateId, TenantId, Timestamp};
    use uuid::Uuid;

    const SALT: [u8; SALT_LEN] = *b"0123456789abcdef";
    const OTHER_SALT: [u8; SALT_LEN] = *b"fedcba9876543210";

    fn at(text: &str) -> Timestamp {
        Timestamp::parse_rfc3339(text).unwrap()
    }

    /// A verified event whose personal values are distinctive enough to be searched for.
    fn event() -> ClickwrapEvent {
        let content = "<p>Terms for Grace Hopper.</p>".to_owned();
        ClickwrapEvent {
            id: EventId::from_uuid(Uuid::from_u128(1)),
            tenant_id: TenantId::from_uuid(Uuid::from_u128(2)),
            app_id: AppId::from_uuid(Uuid::from_u128(3)),
            template_id: TemplateId::from_uuid(Uuid::from_u128(4)),
            template_name: "Terms of Service".to_owned(),
            version: VersionNumber::new(2, 1),
            effective_at: at("2026-01-01T00:00:00Z"),
            end_user_id: EndUserId::parse("user-zq81-secret").unwrap(),
            action: Action::Accepted,
            status: EventStatus::Accepted,
            language: Language::English,
            content_hash: ContentHash::of(&content),
            content,
            template_placeholders: Some(r#"{"fullName":"Grace Hopper","customPlaceholders":{"city":"Arlington"}}"#.to_owned()),
            technical_metadata: r#"{"ipAddress":"198.51.100.77","userAgent":"UniqueBrowser/9.9","client":{"screen":"1234x987","sdk":"js"}}"#.to_owned(),
            presentation: Presentation {
                mode: PresentationMode::Dialog,
                agreement_mode: AgreementMode::Checkbox,
                accept_label: "I agree".to_owned(),
                checkbox_label: Some("I have read the terms".to_owned()),
                scroll_required: None,
            },
            presented_at: at("2026-11-22T07:15:03.123Z"),
            action_at: at("2026-11-22T07:15:09.456Z"),
            verified_at: Some(at("2026-11-22T07:16:00Z")),
        }
    }

    fn leaf_text(event: &ClickwrapEvent, salt: &[u8; SALT_LEN]) -> String {
        String::from_utf8(leaf_bytes(&evidence_record(event, Some(&[0xab; 32]), salt)).unwrap()).unwrap()
    }

    #[test]
    fn the_record_holds_no_personal_value_in_clear() {
        let text = leaf_text(&event(), &SALT);
        for personal in
            ["user-zq81-secret", "198.51.100.77", "UniqueBrowser", "Grace Hopper", "Arlington", "1234x987", "Grace"]
        {
            assert!(!text.contains(personal), "{personal} in {text}");
        }
    }

    #[test]
    fn the_record_holds_the_details_as_the_api_writes_them() {
        let record = evidence_record(&event(), Some(&[0xab; 32]), &SALT);
        assert_eq!(record["ledgerVersion"], 1);
        assert_eq!(record["clickwrapEventId"], "00000000-0000-0000-0000-000000000001");
        assert_eq!(record["tenantId"], "00000000-0000-0000-0000-000000000002");
        assert_eq!(record["clickwrapTemplateVersion"], 2);
        assert_eq!(record["clickwrapTemplateVersionMinor"], 1);
        assert_eq!(record["action"], "ACCEPTED");
        assert_eq!(record["clickwrapEventStatus"], "ACCEPTED");
        assert_eq!(record["contentHash"], ContentHash::of("<p>Terms for Grace Hopper.</p>").as_str());
        assert_eq!(record["presentation"]["checkboxLabel"], "I have read the terms");
        assert_eq!(record["presentedAt"], "2026-11-22T07:15:03.123Z");
        assert_eq!(record["verifiedAt"], "2026-11-22T07:16:00.000Z");
        assert_eq!(record["certificateSha256"], "ab".repeat(32));
        assert!(record.get("content").is_none());
        assert!(record.get("technicalMetadata").is_none());
        let without_certificate = evidence_record(&event(), None, &SALT);
        assert_eq!(without_certificate["certificateSha256"], Value::Null);
    }

    #[test]
    fn commitments_open_with_the_right_salt_and_value_only() {
        let event = event();
        let record = evidence_record(&event, None, &SALT);
        let values = personal_values(&event);
        assert_eq!(values.end_user_id, "user-zq81-secret");
        assert_eq!(values.ip_address.as_deref(), Some("198.51.100.77"));
        assert_eq!(values.user_agent.as_deref(), Some("UniqueBrowser/9.9"));
        assert_eq!(
            values.template_placeholders.as_deref(),
            Some(r#"{"customPlaceholders":{"city":"Arlington"},"fullName":"Grace Hopper"}"#)
        );
        assert_eq!(values.client_metadata.as_deref(), Some(r#"{"screen":"1234x987","sdk":"js"}"#));
        for (name, value) in values.fields() {
            let value = value.unwrap();
            let recorded = record[name].as_str().unwrap();
            assert_eq!(recorded, commitment(&SALT, name, value), "{name}");
            assert!(recorded.starts_with("sha256:") && recorded.len() == 7 + 64);
            assert_ne!(recorded, commitment(&OTHER_SALT, name, value), "{name}");
            assert_ne!(recorded, commitment(&SALT, name, &format!("{value} ")), "{name}");
        }
    }

    #[test]
    fn equal_values_of_different_fields_commit_differently() {
        assert_ne!(commitment(&SALT, END_USER_ID, "x"), commitment(&SALT, USER_AGENT, "x"));
        // The separator keeps the boundary between name and value.
        assert_ne!(commitment(&SALT, "ab", "c"), commitment(&SALT, "a", "bc"));
    }

    #[test]
    fn the_record_is_stable() {
        assert_eq!(leaf_text(&event(), &SALT), leaf_text(&event(), &SALT));
        // The whole leaf, pinned: a change of layout is a new `ledgerVersion`. The commitments and
        // the leaf hash were computed apart from this code (SHA-256 of the same bytes elsewhere).
        let expected = concat!(
            r#"{"action":"ACCEPTED","actionAt":"2026-11-22T07:15:09.456Z","#,
            r#""appId":"00000000-0000-0000-0000-000000000003","#,
            r#""certificateSha256":"abababababababababababababababababababababababababababababababab","#,
            r#""clickwrapEventId":"00000000-0000-0000-0000-000000000001","clickwrapEventStatus":"ACCEPTED","#,
            r#""clickwrapTemplateId":"00000000-0000-0000-0000-000000000004","#,
            r#""clickwrapTemplateVersion":2,"clickwrapTemplateVersionMinor":1,"#,
            r#""clientMetadata":"sha256:6cec84fa1194b6615187efc7eb3870c875b55955e51cdb7c3b1fea624a7b0ae8","#,
            r#""contentHash":"sha256:ac03c778c1bf9e54f365a9eff3d0dcec766097d8e40ce8425a7871533ee0bb68","#,
            r#""effectiveAt":"2026-01-01T00:00:00.000Z","#,
            r#""endUserId":"sha256:c19d2b4286362cc5823802a638b506e61da6dede1fe2ed62b7cbdc4134908d50","#,
            r#""ipAddress":"sha256:88f5af1f49012685d544b856269109a94941b5a3f91d18633349b004142d56d3","#,
            r#""language":"en","ledgerVersion":1,"#,
            r#""presentation":{"acceptLabel":"I agree","agreementMode":"CHECKBOX","#,
            r#""checkboxLabel":"I have read the terms","mode":"DIALOG","scrollRequired":null},"#,
            r#""presentedAt":"2026-11-22T07:15:03.123Z","templateName":"Terms of Service","#,
            r#""templatePlaceholders":"sha256:62c5926b40a55bef7ac78334d0251cc273bd49c7a841cbe7cf9f5b1639d263b8","#,
            r#""tenantId":"00000000-0000-0000-0000-000000000002","#,
            r#""userAgent":"sha256:a366c0f2ef93b97db610c729068efb77ae62c1b5e4c7a8c5a7c6252ae5a30dff","#,
            r#""verifiedAt":"2026-11-22T07:16:00.000Z"}"#,
        );
        assert_eq!(leaf_text(&event(), &SALT), expected);
        assert_eq!(
            hex::encode(leaf_hash(expected.as_bytes())),
            "dc84216f5d219e4717892c5aa8e7ec87836cb08718cbe373ba1c0127058c2ef9"
        );
    }

    #[test]
    fn another_salt_changes_the_commitments_and_nothing_else() {
        let first = evidence_record(&event(), Some(&[1; 32]), &SALT);
        let second = evidence_record(&event(), Some(&[1; 32]), &OTHER_SALT);
        let (Value::Object(first), Value::Object(second)) = (first, second) else { panic!("records are objects") };
        assert_eq!(first.len(), second.len());
        let committed = [END_USER_ID, IP_ADDRESS, USER_AGENT, TEMPLATE_PLACEHOLDERS, CLIENT_METADATA];
        for (name, value) in &first {
            if committed.contains(&name.as_str()) {
                assert_ne!(value, &second[name], "{name}");
            } else {
                assert_eq!(value, &second[name], "{name}");
            }
        }
    }

    #[test]
    fn absent_values_are_null_and_odd_metadata_is_still_committed() {
        let mut event = event();
        event.template_placeholders = None;
        event.technical_metadata = r#"{"ipAddress":null,"userAgent":42,"client":{"dpr":1.5}}"#.to_owned();
        let values = personal_values(&event);
        assert_eq!((values.ip_address, values.user_agent, values.template_placeholders), (None, None, None));
        assert_eq!(values.client_metadata.as_deref(), Some(r#"{"dpr":1.5}"#));
        let record = evidence_record(&event, None, &SALT);
        assert_eq!(record[IP_ADDRESS], Value::Null);
        assert_eq!(record[TEMPLATE_PLACEHOLDERS], Value::Null);
        assert!(record[CLIENT_METADATA].is_string());

        event.technical_metadata = "not json at all".to_owned();
        assert_eq!(personal_values(&event).client_metadata.as_deref(), Some("not json at all"));
        event.technical_metadata = String::new();
        assert_eq!(personal_values(&event).client_metadata, None);
    }
}
