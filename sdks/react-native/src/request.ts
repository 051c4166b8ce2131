/**
 * Checking and encoding what the app passes to show() and showAcceptedContent(), and the language
 * wishes: the same rules as the web SDK (crates/web-sdk/clickwrap.js), checked against the same
 * cases (tests/cases.json).
 */
import { invalidArgument } from './errors';
import type { ClickwrapRequest, TemplatePlaceholders } from './types';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const END_USER_ID_MAX = 256;
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;
const LANGUAGE_TAG = /^[a-z]{2,8}(?:[-_][a-z0-9]{1,8})*$/i;
const MAX_LANGUAGES = 16;

export function checkRequest(request: unknown): asserts request is ClickwrapRequest {
  if (!request || typeof request !== 'object') throw invalidArgument('the first argument must be an object');
  const { clickwrapTemplateId, endUserId, language } = request as Record<string, unknown>;
  if (typeof clickwrapTemplateId !== 'string' || !UUID.test(clickwrapTemplateId)) {
    throw invalidArgument('clickwrapTemplateId must be a UUID');
  }
  if (typeof endUserId !== 'string' || !endUserId || Array.from(endUserId).length > END_USER_ID_MAX || CONTROL_CHARACTERS.test(endUserId)) {
    throw invalidArgument(`endUserId must be 1 to ${END_USER_ID_MAX} characters without control characters`);
  }
  if (language != null && typeof language !== 'string') throw invalidArgument('language must be a string');
}

export type EncodedPlaceholders = Record<string, string | Record<string, string>>;

/** Placeholder values, each URL-encoded once (the service decodes them once when it renders). */
export function encodePlaceholders(values: TemplatePlaceholders | null | undefined): EncodedPlaceholders | null {
  return encode(values, false) as EncodedPlaceholders | null;
}

function encode(values: unknown, inner: boolean): EncodedPlaceholders | Record<string, string> | null {
  if (values == null) return null;
  if (typeof values !== 'object' || Array.isArray(values)) throw invalidArgument('templatePlaceholders must be an object');
  const out: EncodedPlaceholders = {};
  for (const [key, value] of Object.entries(values as Record<string, unknown>)) {
    if (value == null) continue;
    if (key === 'customPlaceholders' && !inner) {
      const custom = encode(value, true) as Record<string, string> | null;
      if (custom) out[key] = custom;
    } else if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      out[key] = encodeURIComponent(String(value));
    } else {
      throw invalidArgument(`templatePlaceholders.${key} must be a string`);
    }
  }
  return Object.keys(out).length ? out : null;
}

/**
 * The language wishes, best first: requested, the app's locale (initialize), the device's. English
 * is not added: when none is available the service falls back to the template's default language,
 * then English, and a trailing `en` would override that. Null when there is no wish.
 */
export function languageList(requested: unknown, appLocale: string | null, deviceLocales: readonly string[]): string | null {
  const seen = new Set<string>();
  const list: string[] = [];
  for (const wish of [requested, appLocale, ...deviceLocales]) {
    if (typeof wish !== 'string') continue;
    for (const part of wish.split(',')) {
      const tag = part.trim();
      const key = tag.toLowerCase();
      if (LANGUAGE_TAG.test(tag) && !seen.has(key) && list.length < MAX_LANGUAGES) {
        seen.add(key);
        list.push(tag);
      }
    }
  }
  return list.length ? list.join(',') : null;
}
