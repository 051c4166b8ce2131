//! `GET /console/templates/{id}/customizations`: how the dialog looks and reads.

use clickwrap_domain::Language;
use clickwrap_domain::templates::customizations::{
    AgreementMode, BORDER_RADIUS_MAX, ButtonStyle, Color, Customizations, TEXT_MAX_CHARS, TextOverrides,
};
use clickwrap_domain::templates::models::Template;
use maud::{Markup, html};

use super::parts::*;
use crate::views::components::{breadcrumbs, csrf_field, fact, language_label, read_only_note};
use crate::views::layout::{Chrome, page_with_scripts};

/// The SDK script the customizations page loads for its dialog preview.
const SDK_SCRIPT: &str = "/sdk/v1/clickwrap.js";

/// `GET /console/templates/{id}/customizations`: how the dialog looks and reads, with a preview
/// through the real SDK (loaded on this page).
pub fn customizations(chrome: &Chrome<'_>, template: &Template) -> Markup {
    let base = format!("/console/templates/{}", template.id);
    let c = &template.customizations;
    page_with_scripts(
        chrome,
        &format!("Dialog customizations: {}", template.name),
        &[SDK_SCRIPT],
        html! {
            (breadcrumbs(&[("Templates", "/console/templates".to_owned()), (template.name.as_str(), base.clone())]))
            h1 { "Dialog customizations" }
            @if chrome.can_change {
                form #customizations-form .stack method="post" action={ (base) "/customizations" } {
                    (csrf_field(chrome))
                    (customization_fields(c))
                    div.button-row {
                        button.button.primary type="submit" { "Save customizations" }
                    }
                }
            } @else {
                (customizations_summary(c))
                (read_only_note("Dialog customizations"))
            }
            section.card aria-labelledby="dialog-preview-heading" {
                h2 #dialog-preview-heading { "Preview" }
                p.hint {
                    "Opens the dialog as end users see it, with the effective version's content"
                    @if chrome.can_change { " and the values in the form above (saved or not)" } "."
                }
                div.filters {
                    div.field {
                        label for="dialog-preview-language" { "Preview language" }
                        select #dialog-preview-language {
                            @for language in Language::ALL {
                                option value=(language.code()) selected[language == template.default_language] { (language_label(language)) }
                            }
                        }
                    }
                    button #dialog-preview .button.secondary type="button" data-template-id=(template.id) { "Preview dialog" }
                }
                p #dialog-preview-status .hint role="status" {}
            }
        },
    )
}

fn customization_fields(c: &Customizations) -> Markup {
    html! {
        fieldset.card {
            legend { "Agreement" }
            @for (mode, text, hint) in [
                (AgreementMode::Scroll, "Scroll to the end", "Accept is enabled once the content was scrolled to its end."),
                (AgreementMode::Checkbox, "Tick a checkbox", "A consent checkbox must be ticked before accepting."),
            ] {
                div.field.check {
                    input id={ "mode-" (mode.as_str()) } type="radio" name="agreement_mode" value=(mode.as_str())
                        checked[c.agreement_mode == mode] aria-describedby={ "mode-" (mode.as_str()) "-hint" };
                    label for={ "mode-" (mode.as_str()) } { (text) }
                    p.hint id={ "mode-" (mode.as_str()) "-hint" } { (hint) }
                }
            }
        }
        fieldset.card {
            legend { "Theme" }
            div.grid-3 {
                (color_field("primary_color", "Primary colour", c.theme.primary_color.as_ref(), "#2563eb"))
                (color_field("background_color", "Background colour", c.theme.background_color.as_ref(), "#ffffff"))
                (color_field("text_color", "Text colour", c.theme.text_color.as_ref(), "#1f2937"))
            }
            div.field {
                label for="border_radius" { "Corner radius (pixels)" }
                input #border_radius .narrow type="number" name="border_radius" min="0" max=(BORDER_RADIUS_MAX) step="1"
                    value=(c.theme.border_radius.unwrap_or(12)) aria-describedby="border_radius-hint";
                p.hint #border_radius-hint { "0 to " (BORDER_RADIUS_MAX) "." }
            }
        }
        fieldset.card {
            legend { "Buttons" }
            div.grid-3 {
                (style_select("accept_style", "Accept button style", c.buttons.accept_style, None))
                (style_select(
                    "decline_style",
                    "Decline button style",
                    c.buttons.decline_style,
                    Some("Decline always looks secondary to Accept: Filled is drawn as a neutral outline."),
                ))
            }
            div.field.check {
                input #show_decline type="checkbox" name="show_decline" value="on" checked[c.buttons.show_decline];
                label for="show_decline" { "Show a Decline button" }
            }
        }
        fieldset.card {
            legend { "Logo" }
            div.field {
                label for="logo_url" { "Logo URL " span.optional { "(optional)" } }
                input #logo_url type="url" name="logo_url" value=(c.logo_url.as_deref().unwrap_or_default())
                    pattern="https://.*" maxlength="2048" placeholder="https://cdn.example.com/logo.png"
                    aria-describedby="logo_url-hint" spellcheck="false";
                p.hint #logo_url-hint { "An https image URL; leave empty for no logo." }
            }
        }
        fieldset.card {
            legend { "Texts" }
            p.hint { "Empty fields use the built-in wording shown in grey. Plain text, at most " (TEXT_MAX_CHARS) " characters." }
            @for language in Language::ALL {
                @let overrides = c.texts.get(&language);
                details.language-texts open[overrides.is_some()] {
                    summary { (language_label(language)) @if overrides.is_some() { " · customized" } }
                    (text_fields(language, overrides))
                }
            }
        }
    }
}

fn text_fields(language: Language, overrides: Option<&TextOverrides>) -> Markup {
    let builtin = Customizations::default().texts_for(language);
    let fields = [
        ("title", "Title", overrides.and_then(|o| o.title.as_deref()), builtin.title),
        ("accept_button", "Accept button", overrides.and_then(|o| o.accept_button.as_deref()), builtin.accept_button),
        (
            "decline_button",
            "Decline button",
            overrides.and_then(|o| o.decline_button.as_deref()),
            builtin.decline_button,
        ),
        (
            "checkbox_label",
            "Checkbox label",
            overrides.and_then(|o| o.checkbox_label.as_deref()),
            builtin.checkbox_label,
        ),
        ("version_label", "Version label", overrides.and_then(|o| o.version_label.as_deref()), builtin.version_label),
    ];
    html! {
        div.grid-2 {
            @for (field, label, value, placeholder) in fields {
                @let id = format!("text-{}-{field}", language.code());
                div.field {
                    label for=(id) { (label) }
                    input #(id) type="text" name={ "texts." (language.code()) "." (field) } value=(value.unwrap_or_default())
                        placeholder=(placeholder) maxlength=(TEXT_MAX_CHARS) lang=(language.code());
                }
            }
        }
    }
}

fn color_field(name: &str, label: &str, value: Option<&Color>, default: &str) -> Markup {
    let value = value.map_or_else(|| default.to_owned(), |color| six_digit(color.as_str()));
    html! {
        div.field {
            label for=(name) { (label) }
            input #(name) .color type="color" name=(name) value=(value);
        }
    }
}

/// `#abc` as `#aabbcc`: what a colour input takes.
fn six_digit(color: &str) -> String {
    match color.strip_prefix('#') {
        Some(hex) if hex.len() == 3 => hex.chars().fold(String::from("#"), |mut out, c| {
            out.push(c);
            out.push(c);
            out
        }),
        _ => color.to_owned(),
    }
}

fn style_select(name: &str, label: &str, selected: ButtonStyle, hint: Option<&str>) -> Markup {
    let hint_id = format!("{name}-hint");
    html! {
        div.field {
            label for=(name) { (label) }
            select #(name) name=(name) aria-describedby=[hint.map(|_| hint_id.as_str())] {
                @for (style, text) in [(ButtonStyle::Filled, "Filled"), (ButtonStyle::Outlined, "Outlined"), (ButtonStyle::Text, "Text only")] {
                    option value=(style.as_str()) selected[style == selected] { (text) }
                }
            }
            @if let Some(hint) = hint {
                p.hint #(hint_id) { (hint) }
            }
        }
    }
}

fn customizations_summary(c: &Customizations) -> Markup {
    let color = |value: Option<&Color>| match value {
        Some(color) => html! { code { (color.as_str()) } },
        None => html! { span.muted { "default" } },
    };
    html! {
        section.card aria-labelledby="customizations-summary-heading" {
            h2 #customizations-summary-heading { "Current customizations" }
            dl.facts {
                (fact("Agreement", html! { (c.agreement_mode.as_str()) }))
                (fact("Primary colour", color(c.theme.primary_color.as_ref())))
                (fact("Background colour", color(c.theme.background_color.as_ref())))
                (fact("Text colour", color(c.theme.text_color.as_ref())))
                (fact("Corner radius", html! {
                    @match c.theme.border_radius { Some(r) => { (r) " px" } None => span.muted { "default" } }
                }))
                (fact("Buttons", html! {
                    "Accept " (c.buttons.accept_style.as_str()) ", decline " (c.buttons.decline_style.as_str())
                    @if !c.buttons.show_decline { " (hidden)" }
                }))
                (fact("Logo", html! {
                    @match &c.logo_url { Some(url) => span.url { (url) }, None => span.muted { "none" } }
                }))
                (fact("Customized texts", html! {
                    @if c.texts.is_empty() { span.muted { "none" } }
                    @else { (language_list(&c.texts.keys().copied().collect::<Vec<_>>())) }
                }))
            }
        }
    }
}
