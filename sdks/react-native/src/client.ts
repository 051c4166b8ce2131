/**
 * ClickwrapClient: the SDK's operations, parallel to the web SDK's (crates/web-sdk/clickwrap.js):
 * the same requests, the same payload, the same language fallback and error codes. What differs is
 * only where the dialog appears: in the <ClickwrapProvider> the app mounts.
 */
import { call, apiBase } from './api';
import type { DialogRequest } from './dialog';
import { clientMetadata, deviceLocales, SDK_VERSION } from './device';
import { ClickwrapError, invalidArgument, notInitialized, userCancelled } from './errors';
import { checkRequest, encodePlaceholders, languageList, type EncodedPlaceholders } from './request';
import type {
  AcceptedContent,
  AcceptedContentRequest,
  CallbackOptions,
  ClickwrapAction,
  ClickwrapRequest,
  ClickwrapView,
  Customizations,
  InitializeOptions,
  Presentation,
  ShowOptions,
  ShowResult,
} from './types';

interface Config {
  appId: string;
  api: string;
  locale: string | null;
}

/** Shows a dialog: what <ClickwrapProvider> registers with the client while it is mounted. */
export type DialogHost = (request: DialogRequest) => void;

let config: Config | null = null;
let host: DialogHost | null = null;
let dialogQueue: Promise<unknown> = Promise.resolve();

/** Called by <ClickwrapProvider> on mount (its host) and unmount (null). */
export function setDialogHost(next: DialogHost | null): void {
  host = next;
}

function present<T>(request: Omit<DialogRequest, 'onFinish' | 'onFail' | 'onCancel'>): Promise<T> {
  const show = host;
  if (!show) return Promise.reject(notInitialized('mount a <ClickwrapProvider> to show the dialog'));
  return new Promise<T>((resolve, reject) => {
    show({
      ...request,
      onFinish: (value) => resolve(value as T),
      onFail: reject,
      onCancel: () => reject(userCancelled()),
    });
  });
}

/** Runs dialogs one after another: a second show() waits for the first dialog to close. */
function queued<T>(task: () => Promise<T>): Promise<T> {
  const run = dialogQueue.then(task);
  dialogQueue = run.then(noop, noop);
  return run;
}

function noop(): void {}

function guarded<T>(body: (current: Config) => Promise<T>): Promise<T> {
  if (!config) return Promise.reject(notInitialized());
  try {
    return body(config);
  } catch (error) {
    return Promise.reject(error);
  }
}

function callback<T>(fn: ((value: T) => void) | undefined, value: T): void {
  if (typeof fn !== 'function') return;
  try {
    fn(value);
  } catch (error) {
    console.error('[clickwrap] a callback failed', error);
  }
}

/**
 * guarded(body), also reported to options.onSuccess / onError. The promise settles as before; a
 * callback that throws is logged and changes nothing. With onError given, an unhandled rejection
 * of the returned promise is not reported.
 */
function reported<T>(options: CallbackOptions<T> | undefined, body: (current: Config) => Promise<T>): Promise<T> {
  const onSuccess = options?.onSuccess;
  const onError = options?.onError;
  const promise = [onSuccess, onError].some((fn) => fn != null && typeof fn !== 'function')
    ? Promise.reject(invalidArgument('onSuccess and onError must be functions'))
    : guarded(body);
  if (!onSuccess && !onError) return promise;
  const settled = promise.then(
    (value) => {
      callback(onSuccess, value);
      return value;
    },
    (error: ClickwrapError) => {
      callback(onError, error);
      throw error;
    },
  );
  if (typeof onError === 'function') settled.catch(noop);
  return settled;
}

function result(view: ClickwrapView, signature: string | null, action: ClickwrapAction | null, eventId: string | null): ShowResult {
  return {
    serviceSignature: signature,
    isAlreadyAccepted: signature === null,
    isCanceled: false,
    action,
    clickwrapEventId: eventId,
    clickwrapTemplateId: view.clickwrapTemplateId,
    clickwrapTemplateVersion: view.clickwrapTemplateVersion,
    clickwrapTemplateVersionMinor: view.clickwrapTemplateVersionMinor,
  };
}

function effectiveMode(view: ClickwrapView, requested: string | undefined): 'SCROLL' | 'CHECKBOX' {
  if (requested != null) {
    console.warn('[clickwrap] the `mode` option is deprecated since SDK v2.0 and ignored: the agreement mode is set on the template');
  }
  const fromServer = view.agreementMode || view.customizations?.agreementMode;
  return String(fromServer || requested || 'SCROLL').toUpperCase() === 'CHECKBOX' ? 'CHECKBOX' : 'SCROLL';
}

async function record(current: Config, view: ClickwrapView, request: ClickwrapRequest, placeholders: EncodedPlaceholders | null,
  action: ClickwrapAction, presentation: Presentation, presentedAt: string | null): Promise<ShowResult> {
  const answer = await call<{ serviceSignature?: unknown; clickwrapEventId?: string } | null>(current.api, 'POST', '/clickwrap', null, {
    appId: current.appId,
    clickwrapTemplateId: view.clickwrapTemplateId,
    clickwrapTemplateVersion: view.clickwrapTemplateVersion,
    clickwrapTemplateVersionMinor: view.clickwrapTemplateVersionMinor,
    endUserId: request.endUserId,
    action,
    language: view.language,
    templatePlaceholders: placeholders,
    contentHash: view.contentHash,
    presentedAt,
    presentation,
    clientMetadata: clientMetadata(),
  }, 0);
  if (!answer || typeof answer.serviceSignature !== 'string') {
    throw new ClickwrapError('ERR_SERVICE_NETWORK', 'the service sent no Signature');
  }
  return result(view, answer.serviceSignature, action, answer.clickwrapEventId ?? null);
}

export const ClickwrapClient = {
  version: SDK_VERSION,

  /** Must be called once before anything else; takes only the public App ID and the service's URL. */
  initialize(appId: string, options: InitializeOptions): void {
    if (typeof appId !== 'string' || !appId.trim()) throw invalidArgument('initialize needs the App ID');
    if (!options || typeof options.baseUrl !== 'string' || !/^https?:\/\/[^/]/i.test(options.baseUrl.trim())) {
      throw invalidArgument('initialize needs {baseUrl}: the service, http(s)://…');
    }
    if (options.locale != null && typeof options.locale !== 'string') throw invalidArgument('locale must be a string');
    config = { appId: appId.trim(), api: apiBase(options.baseUrl), locale: options.locale || null };
  },

  isInitialized(): boolean {
    return config !== null;
  },

  /** Forgets the App ID; the next call needs initialize() again. */
  shutdown(): void {
    config = null;
  },

  /**
   * Shows the clickwrap to the end user unless they already accepted the latest major version.
   * Resolves with {serviceSignature, isAlreadyAccepted, isCanceled, action, clickwrapEventId, …};
   * serviceSignature is null when the user had already accepted.
   */
  show(request: ClickwrapRequest, options: ShowOptions = {}): Promise<ShowResult> {
    return reported(options, (current) => {
      checkRequest(request);
      const placeholders = encodePlaceholders(request.templatePlaceholders);
      if (!host) throw notInitialized('mount a <ClickwrapProvider> to show the dialog');
      return queued(async () => {
        if (config !== current) throw notInitialized();
        const query: Record<string, string | null> = {
          appId: current.appId,
          clickwrapTemplateId: request.clickwrapTemplateId,
          endUserId: request.endUserId,
          language: languageList(request.language, current.locale, deviceLocales()),
        };
        if (placeholders) query.templatePlaceholders = JSON.stringify(placeholders);
        const view = await call<ClickwrapView>(current.api, 'GET', '/clickwrap', query, undefined, 1);
        if (!view.acceptanceRequired) return result(view, null, null, null);
        let presentedAt: string | null = null;
        return present<ShowResult>({
          view,
          readOnly: false,
          disableClose: !!options.disableClose,
          agreementMode: effectiveMode(view, options.mode),
          onShown: () => {
            presentedAt = new Date().toISOString();
          },
          onAction: (action, presentation) => record(current, view, request, placeholders, action, presentation, presentedAt),
        });
      });
    });
  },

  /**
   * Shows, read-only, the version this end user last accepted. Resolves with that content when the
   * dialog is closed; ERR_SERVICE_TEMPLATE_NOT_FOUND when the user never accepted the template.
   */
  showAcceptedContent(request: AcceptedContentRequest, options?: CallbackOptions<AcceptedContent>): Promise<AcceptedContent> {
    return reported(options, (current) => {
      checkRequest(request);
      if (!host) throw notInitialized('mount a <ClickwrapProvider> to show the dialog');
      const base = {
        appId: current.appId,
        clickwrapTemplateId: request.clickwrapTemplateId,
        language: languageList(request.language, current.locale, deviceLocales()),
      };
      return queued(async () => {
        const [content, customizations] = await Promise.all([
          call<AcceptedContent>(current.api, 'GET', '/clickwrap/content', { ...base, endUserId: request.endUserId }, undefined, 1),
          // The dialog can do without the template's look; the content is what matters.
          call<Customizations>(current.api, 'GET', '/clickwrap/customizations', base, undefined, 1).catch(() => null),
        ]);
        await present<null>({
          view: { ...content, customizations },
          readOnly: true,
          disableClose: false,
          agreementMode: 'SCROLL',
        });
        return content;
      });
    });
  },
};
