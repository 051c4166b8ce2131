export { ClickwrapClient } from './client';
export { ClickwrapProvider } from './provider';
export { ClickwrapError } from './errors';
export type { ClickwrapErrorCode, Problem } from './errors';
export type {
  AcceptedContent,
  AcceptedContentRequest,
  ButtonStyle,
  CallbackOptions,
  ClickwrapAction,
  ClickwrapRequest,
  ClickwrapView,
  Customizations,
  InitializeOptions,
  Presentation,
  ShowOptions,
  ShowResult,
  TemplatePlaceholders,
} from './types';
