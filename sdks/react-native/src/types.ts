/** The shapes the SDK takes and gives, and the service's answers it reads (docs/sdk-react-native.md). */
import type { ClickwrapError } from './errors';

export interface InitializeOptions {
  /** The service: its origin (`https://consent.example.com`), or the origin with /public-client/v1. */
  baseUrl: string;
  /** The app's language (`de`, `pt-BR`): second in the language fallback, after the request's. */
  locale?: string | null;
}

/** Values for the template's placeholders; the SDK URL-encodes each one. */
export interface TemplatePlaceholders {
  fullName?: string;
  email?: string;
  company?: string;
  jobTitle?: string;
  date?: string;
  phoneNumber?: string;
  registrationNumber?: string;
  vatNumber?: string;
  address?: string;
  /** `{orderId: '42'}` fills `{{custom.orderId}}`. */
  customPlaceholders?: Record<string, string | number | boolean | null | undefined>;
  [name: string]: string | number | boolean | null | undefined | Record<string, string | number | boolean | null | undefined>;
}

export interface ClickwrapRequest {
  clickwrapTemplateId: string;
  /** Your id of the end user: 1 to 256 characters, no control characters. */
  endUserId: string;
  templatePlaceholders?: TemplatePlaceholders | null;
  /** The language wanted first (`fr`, `de-AT`); see the language fallback. */
  language?: string | null;
}

export interface AcceptedContentRequest {
  clickwrapTemplateId: string;
  endUserId: string;
  language?: string | null;
}

export interface CallbackOptions<T> {
  /** Called with the value the promise resolves with, just before it resolves. */
  onSuccess?: (value: T) => void;
  /** Called with the error the promise rejects with, just before it rejects. */
  onError?: (error: ClickwrapError) => void;
}

export interface ShowOptions extends CallbackOptions<ShowResult> {
  /** No close button, and the Android back button does nothing: the user must accept or decline. */
  disableClose?: boolean;
  /** Deprecated since SDK v2.0 and ignored when the service sends the template's mode. */
  mode?: 'scroll' | 'checkbox' | 'SCROLL' | 'CHECKBOX';
}

export type ClickwrapAction = 'ACCEPTED' | 'DECLINED';

export interface ShowResult {
  /** The Signature your backend verifies; null when the user had already accepted. */
  serviceSignature: string | null;
  /** True when no dialog was needed. */
  isAlreadyAccepted: boolean;
  /** Always false in a resolved result: closing the dialog rejects with ERR_SERVICE_USER_CANCELLED. */
  isCanceled: false;
  /** The user's choice, or null when the user had already accepted. Verify a decline too. */
  action: ClickwrapAction | null;
  /** The recorded (still UNVERIFIED) event, or null. */
  clickwrapEventId: string | null;
  clickwrapTemplateId: string;
  clickwrapTemplateVersion: number;
  clickwrapTemplateVersionMinor: number;
}

/** What showAcceptedContent() resolves with: the version the end user last accepted, as shown. */
export interface AcceptedContent {
  clickwrapTemplateId: string;
  clickwrapTemplateVersion: number;
  clickwrapTemplateVersionMinor: number;
  effectiveAt: string;
  name: string;
  language: string;
  content: string;
  contentHash: string;
}

export type ButtonStyle = 'FILLED' | 'OUTLINED' | 'TEXT';

/** GET /clickwrap/customizations, also inside GET /clickwrap's answer. */
export interface Customizations {
  agreementMode?: 'SCROLL' | 'CHECKBOX' | null;
  theme?: {
    primaryColor?: string | null;
    backgroundColor?: string | null;
    textColor?: string | null;
    borderRadius?: number | null;
  } | null;
  buttons?: { acceptStyle?: ButtonStyle | null; declineStyle?: ButtonStyle | null; showDecline?: boolean | null } | null;
  logoUrl?: string | null;
  texts?: {
    title?: string | null;
    acceptButton?: string | null;
    declineButton?: string | null;
    checkboxLabel?: string | null;
    versionLabel?: string | null;
  } | null;
}

/** GET /clickwrap's answer: what the dialog shows. */
export interface ClickwrapView {
  acceptanceRequired?: boolean;
  clickwrapTemplateId: string;
  clickwrapTemplateVersion: number;
  clickwrapTemplateVersionMinor: number;
  effectiveAt: string;
  name: string;
  language: string;
  agreementMode?: 'SCROLL' | 'CHECKBOX' | null;
  /** The service's sanitized HTML, placeholders filled. */
  content: string;
  contentHash: string;
  customizations?: Customizations | null;
}

/** What the dialog reports with an action, recorded with the event. */
export interface Presentation {
  mode: 'DIALOG';
  agreementMode: 'SCROLL' | 'CHECKBOX';
  acceptLabel: string;
  checkboxLabel: string | null;
  /** SCROLL mode: the agreement was taller than its box when shown, so Accept waited for the end. */
  scrollRequired: boolean;
}
