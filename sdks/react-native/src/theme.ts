/**
 * The dialog's colours from the template's theme, with the web SDK's rule: every text meets WCAG
 * AA (4.5:1) and every button edge 3:1 against the dialog's background, whatever the theme. Where a
 * template colour does not read, the nearest colour that does is used instead.
 */
import type { ButtonStyle, Customizations } from './types';

type Rgb = [number, number, number];

const COLOR = /^#(?:[0-9a-f]{3}){1,2}$/i;
const WHITE: Rgb = [255, 255, 255];
const INK: Rgb = [17, 24, 39];
const DEFAULT_TEXT: Rgb = [31, 41, 55];
const DEFAULT_PRIMARY: Rgb = [37, 99, 235];
const ERROR_RED: Rgb = [185, 28, 28];
const DEFAULT_RADIUS = 12;
const MAX_RADIUS = 48;

export interface Palette {
  background: string;
  text: string;
  /** The subtitle and the scroll hint. */
  muted: string;
  primary: string;
  onPrimary: string;
  /** Links and the text of outlined and text buttons. */
  accent: string;
  /** Button edges and the checkbox. */
  edge: string;
  /** A FILLED Decline's edge: secondary, never filled like Accept. */
  neutral: string;
  error: string;
  radius: number;
}

function hexColor(value: unknown): Rgb | null {
  if (typeof value !== 'string' || !COLOR.test(value)) return null;
  let digits = value.slice(1);
  if (digits.length === 3) digits = digits.replace(/./g, '$&$&');
  const n = parseInt(digits, 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function hex(c: Rgb): string {
  return `#${c.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;
}

export function contrast(a: Rgb, b: Rgb): number {
  const luminance = (c: Rgb) => {
    const l = c.map((v) => {
      const s = v / 255;
      return s <= 0.04045 ? s / 12.92 : Math.pow((s + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * l[0] + 0.7152 * l[1] + 0.0722 * l[2] + 0.05;
  };
  const x = luminance(a);
  const y = luminance(b);
  return x > y ? x / y : y / x;
}

function mix(a: Rgb, b: Rgb, weight: number): Rgb {
  return a.map((v, i) => v + (b[i] - v) * weight) as Rgb;
}

/** `from`, moved towards `to` only as far as `ratio` against `bg` needs (`to` itself at worst). */
function readable(from: Rgb, to: Rgb, bg: Rgb, ratio: number): Rgb {
  for (let w = 0; w < 1; w += 0.125) {
    const c = mix(from, to, w);
    if (contrast(c, bg) >= ratio) return c;
  }
  return to;
}

/** Text on `c`: white where it reads, else near-black, else black. */
function onColor(c: Rgb): Rgb {
  if (contrast(WHITE, c) >= 4.5) return WHITE;
  return contrast(INK, c) >= 4.5 ? INK : [0, 0, 0];
}

export function palette(customizations: Customizations | null | undefined): Palette {
  const theme = customizations?.theme ?? {};
  const bg = hexColor(theme.backgroundColor) ?? WHITE;
  let text = hexColor(theme.textColor) ?? DEFAULT_TEXT;
  if (contrast(text, bg) < 4.5) text = onColor(bg);
  const primary = hexColor(theme.primaryColor) ?? DEFAULT_PRIMARY;
  const radius = theme.borderRadius;
  return {
    background: hex(bg),
    text: hex(text),
    muted: hex(readable(mix(text, bg, 0.3), text, bg, 4.5)),
    primary: hex(primary),
    onPrimary: hex(onColor(primary)),
    accent: hex(readable(primary, text, bg, 4.5)),
    edge: hex(readable(primary, text, bg, 3)),
    neutral: hex(readable(mix(text, bg, 0.45), text, bg, 3)),
    error: hex(readable(ERROR_RED, text, bg, 4.5)),
    radius: typeof radius === 'number' && radius >= 0 && radius <= MAX_RADIUS ? radius : DEFAULT_RADIUS,
  };
}

export interface ButtonColors {
  backgroundColor: string;
  borderColor: string;
  color: string;
}

/** Accept is the primary button; a FILLED Decline is a neutral outlined button, never filled. */
export function buttonColors(style: ButtonStyle | null | undefined, secondary: boolean, colors: Palette): ButtonColors {
  const kind = String(style || 'FILLED').toUpperCase();
  if (kind === 'OUTLINED') return { backgroundColor: 'transparent', borderColor: colors.edge, color: colors.accent };
  if (kind === 'TEXT') return { backgroundColor: 'transparent', borderColor: 'transparent', color: colors.accent };
  if (secondary) return { backgroundColor: 'transparent', borderColor: colors.neutral, color: colors.text };
  return { backgroundColor: colors.primary, borderColor: colors.edge, color: colors.onPrimary };
}
