/** The dialog's built-in wording and how texts and dates are chosen (as in the web SDK). */
import type { Customizations } from './types';

/** Wording the service's texts do not cover, per launch language. */
export interface Wording {
  scrollHint: string;
  saveFailed: string;
  close: string;
}

const WORDING: Record<string, Wording> = {
  en: { scrollHint: 'Scroll to the end to continue.', saveFailed: 'Your choice could not be saved. Please try again.', close: 'Close' },
  de: {
    scrollHint: 'Scrollen Sie bis zum Ende, um fortzufahren.',
    saveFailed: 'Ihre Auswahl konnte nicht gespeichert werden. Bitte versuchen Sie es erneut.',
    close: 'Schließen',
  },
  fr: {
    scrollHint: 'Faites défiler jusqu’à la fin pour continuer.',
    saveFailed: 'Votre choix n’a pas pu être enregistré. Veuillez réessayer.',
    close: 'Fermer',
  },
  es: { scrollHint: 'Desplácese hasta el final para continuar.', saveFailed: 'No se pudo guardar su elección. Inténtelo de nuevo.', close: 'Cerrar' },
  zh: { scrollHint: '请滚动到末尾以继续。', saveFailed: '无法保存您的选择，请重试。', close: '关闭' },
  hi: { scrollHint: 'जारी रखने के लिए अंत तक स्क्रॉल करें।', saveFailed: 'आपका चयन सहेजा नहीं जा सका। कृपया पुनः प्रयास करें।', close: 'बंद करें' },
  ru: { scrollHint: 'Прокрутите до конца, чтобы продолжить.', saveFailed: 'Не удалось сохранить ваш выбор. Попробуйте ещё раз.', close: 'Закрыть' },
};

/** Used only when the service sends no text (it normally resolves them for the shown language). */
const DEFAULT_TEXTS = {
  title: 'Please review and accept',
  acceptButton: 'Accept',
  declineButton: 'Decline',
  checkboxLabel: 'I have read and agree to the terms',
  versionLabel: 'Version',
};

export type TextKey = keyof typeof DEFAULT_TEXTS;

export function wording(language: string | null | undefined): Wording {
  return WORDING[String(language || 'en').slice(0, 2).toLowerCase()] ?? WORDING.en;
}

export function textOf(customizations: Customizations | null | undefined, key: TextKey): string {
  const value = customizations?.texts?.[key];
  return typeof value === 'string' && value.trim() ? value : DEFAULT_TEXTS[key];
}

/** The version's date of effect in the shown language (`January 15, 2026`). */
export function formatDate(iso: string, language: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  try {
    return date.toLocaleDateString(language || 'en', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
  } catch {
    return iso.slice(0, 10);
  }
}

/** `Terms of Service · Version 1.2 · January 15, 2026`. */
export function subtitle(view: { name?: string; clickwrapTemplateVersion: number; clickwrapTemplateVersionMinor: number; effectiveAt: string }, customizations: Customizations | null | undefined, language: string): string {
  const parts = [] as string[];
  if (view.name) parts.push(view.name);
  parts.push(`${textOf(customizations, 'versionLabel')} ${view.clickwrapTemplateVersion}.${view.clickwrapTemplateVersionMinor}`);
  const date = formatDate(view.effectiveAt, language);
  if (date) parts.push(date);
  return parts.join(' · ');
}
