/** What the SDK reads from the device: its locale and the facts recorded with an action. */
import { Dimensions, PixelRatio, Platform } from 'react-native';

/** The SDK's version, sent as `sdk: "react-native/<version>"`; a test keeps it equal to package.json's. */
export const SDK_VERSION = '1.0.0';

/**
 * The device's locale, as a one-element list (or empty). Hermes and JavaScriptCore both implement
 * Intl, whose default locale is the device's; this needs no native module.
 */
export function deviceLocales(): string[] {
  try {
    const locale = Intl.DateTimeFormat().resolvedOptions().locale;
    return locale ? [locale] : [];
  } catch {
    return [];
  }
}

function timezone(): string | null {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || null;
  } catch {
    return null;
  }
}

/**
 * The OS version as users know it (`14`, `17.4`). Android's Platform.Version is the API level (34),
 * not the version; its release is in Platform.constants.Release.
 */
function osVersion(constants: Record<string, unknown>): string | null {
  if (Platform.OS === 'android' && typeof constants.Release === 'string' && constants.Release) return constants.Release;
  return Platform.Version == null ? null : String(Platform.Version);
}

/** The device facts sent as `clientMetadata` with an action; the service stores them as reported. */
export function clientMetadata(): Record<string, unknown> {
  const screen = Dimensions.get('screen');
  const window = Dimensions.get('window');
  const constants = (Platform.constants ?? {}) as Record<string, unknown>;
  const locales = deviceLocales();
  const text = (value: unknown) => (typeof value === 'string' && value ? value : null);
  return {
    sdk: `react-native/${SDK_VERSION}`,
    platform: Platform.OS,
    osVersion: osVersion(constants),
    // Android names the model; iOS tells phone from tablet.
    model: text(constants.Model),
    manufacturer: text(constants.Manufacturer),
    deviceType: text(constants.interfaceIdiom),
    screen: { width: screen.width, height: screen.height, pixelRatio: PixelRatio.get() },
    window: { width: window.width, height: window.height },
    fontScale: PixelRatio.getFontScale(),
    timezone: timezone(),
    language: locales[0] ?? null,
    languages: locales,
  };
}
