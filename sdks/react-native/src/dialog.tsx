/**
 * The consent dialog: a native Modal with the agreement, the agreement mode's rule (scroll to the
 * end, or tick the checkbox), the template's customizations and the version subtitle. It is shown
 * by <ClickwrapProvider>; the client decides what happens with the user's action.
 */
import React from 'react';
import {
  ActivityIndicator,
  Image,
  Modal,
  Platform,
  Pressable,
  ScrollView,
  StatusBar,
  StyleSheet,
  Text,
  View,
  useWindowDimensions,
  type LayoutChangeEvent,
  type NativeScrollEvent,
  type NativeSyntheticEvent,
} from 'react-native';

import { isTemporary } from './errors';
import { AgreementContent } from './html';
import { buttonColors, palette, type ButtonColors } from './theme';
import type { ClickwrapAction, ClickwrapView, Presentation } from './types';
import { subtitle, textOf, wording } from './wording';

/** How close to the end (in points) counts as the end: rounding on devices with fractional pixels. */
const END_SLACK = 2;

/** The space kept between the dialog and the screen's edges. */
const SCREEN_MARGIN = 16;

/**
 * The Modal covers the whole screen, the status bar's area too (always on iOS; on Android through
 * statusBarTranslucent), and React Native tells no safe-area insets without a native module. So a
 * dialog as tall as the screen keeps clear of the status bar, an iPhone's notch or Dynamic Island
 * (insets of at most 62 points upright) and its home indicator (34 points) by these margins.
 */
function screenMargins(landscape: boolean) {
  if (Platform.OS === 'ios') return landscape ? { paddingTop: 24, paddingBottom: 24 } : { paddingTop: 62, paddingBottom: 34 };
  if (Platform.OS === 'android') return { paddingTop: (StatusBar.currentHeight ?? 24) + SCREEN_MARGIN, paddingBottom: SCREEN_MARGIN };
  return { paddingVertical: SCREEN_MARGIN };
}

export interface DialogRequest {
  view: ClickwrapView;
  /** showAcceptedContent: the text with one Close button, nothing to decide. */
  readOnly: boolean;
  disableClose: boolean;
  agreementMode: 'SCROLL' | 'CHECKBOX';
  /** Called once the dialog is on screen (the moment recorded as presentedAt). */
  onShown?: () => void;
  /** Records the action; a temporary failure keeps the dialog open for another try. */
  onAction?: (action: ClickwrapAction, presentation: Presentation) => Promise<unknown>;
  /** The dialog is done: with onAction's result, or null when a read-only dialog is closed. */
  onFinish: (value: unknown) => void;
  /** The dialog is done without a result: the user closed it, or recording failed for good. */
  onFail: (error: unknown) => void;
  /** Called instead of onFail when the user closes it (ERR_SERVICE_USER_CANCELLED). */
  onCancel: () => void;
}

export function ClickwrapDialog({ request }: { request: DialogRequest }) {
  const { view, readOnly, disableClose, agreementMode, onShown, onAction, onFinish, onFail, onCancel } = request;
  const customizations = view.customizations ?? {};
  const buttons = customizations.buttons ?? {};
  const language = view.language || 'en';
  const words = wording(language);
  const colors = palette(customizations);
  const closable = readOnly || !disableClose;
  const scrollMode = !readOnly && agreementMode === 'SCROLL';
  const screen = useWindowDimensions();

  const [boxHeight, setBoxHeight] = React.useState<number | null>(null);
  const [contentHeight, setContentHeight] = React.useState<number | null>(null);
  const [scrolledToEnd, setScrolledToEnd] = React.useState(false);
  const [checked, setChecked] = React.useState(false);
  // The action being recorded: its button shows a spinner, and nothing can be pressed meanwhile.
  const [pending, setPending] = React.useState<ClickwrapAction | null>(null);
  const busy = pending !== null;
  const [saveError, setSaveError] = React.useState('');
  const [logoFailed, setLogoFailed] = React.useState(false);
  // Whether Accept was held back at first because the agreement was taller than its box.
  const scrollRequired = React.useRef<boolean | null>(null);
  const settled = React.useRef(false);

  // Once, when the dialog appears: the moment recorded as presentedAt.
  React.useEffect(() => {
    onShown?.();
  }, []);

  // Once both sizes are known: an agreement that fits needs no scrolling.
  React.useEffect(() => {
    if (boxHeight == null || contentHeight == null) return;
    const fits = contentHeight <= boxHeight + END_SLACK;
    if (scrollRequired.current == null) scrollRequired.current = !fits;
    if (fits) setScrolledToEnd(true);
  }, [boxHeight, contentHeight]);

  const title = readOnly && view.name ? view.name : textOf(customizations, 'title');
  // The template's name is left out of the subtitle when it is already the title (showAcceptedContent).
  const subtitleView = view.name === title ? { ...view, name: '' } : view;
  const acceptLabel = textOf(customizations, 'acceptButton');
  const checkboxLabel = textOf(customizations, 'checkboxLabel');
  const ready = scrollMode ? scrolledToEnd : checked;
  const logoUrl = typeof customizations.logoUrl === 'string' && /^https:\/\//i.test(customizations.logoUrl) ? customizations.logoUrl : null;

  const cancel = () => {
    if (settled.current || busy) return;
    settled.current = true;
    if (readOnly) onFinish(null);
    else onCancel();
  };

  const act = (action: ClickwrapAction) => {
    if (busy || settled.current || !onAction) return;
    setPending(action);
    setSaveError('');
    const presentation: Presentation = {
      mode: 'DIALOG',
      agreementMode,
      acceptLabel,
      checkboxLabel: agreementMode === 'CHECKBOX' ? checkboxLabel : null,
      scrollRequired: agreementMode === 'SCROLL' && scrollRequired.current === true,
    };
    onAction(action, presentation).then(
      (value) => {
        settled.current = true;
        onFinish(value);
      },
      (failure) => {
        setPending(null);
        if (isTemporary(failure)) {
          setSaveError(words.saveFailed);
        } else {
          settled.current = true;
          onFail(failure);
        }
      },
    );
  };

  const onScroll = (event: NativeSyntheticEvent<NativeScrollEvent>) => {
    const { contentOffset, contentSize, layoutMeasurement } = event.nativeEvent;
    if (contentOffset.y + layoutMeasurement.height >= contentSize.height - END_SLACK) setScrolledToEnd(true);
  };

  // `working`: the button's action is being recorded. Its spinner stands over the hidden label, so
  // the button keeps its size and the footer does not move.
  const button = (label: string, style: ButtonColors, disabled: boolean, onPress: () => void, testID: string, working = false) => (
    <Pressable
      testID={testID}
      accessibilityRole="button"
      accessibilityLabel={label}
      accessibilityState={{ disabled, busy }}
      accessibilityHint={testID === 'clickwrap-accept' && scrollMode && !scrolledToEnd ? words.scrollHint : undefined}
      disabled={disabled}
      onPress={onPress}
      style={[styles.button, { backgroundColor: style.backgroundColor, borderColor: style.borderColor, borderRadius: colors.radius / 2 }, disabled && !working && styles.disabled]}
    >
      <Text style={[styles.buttonText, { color: style.color }, working && styles.hidden]}>{label}</Text>
      {working ? <ActivityIndicator testID="clickwrap-spinner" color={style.color} style={StyleSheet.absoluteFill} /> : null}
    </Pressable>
  );

  return (
    <Modal
      visible
      transparent
      animationType="fade"
      statusBarTranslucent
      // Android's back button: closes like the close button, unless closing is disabled.
      onRequestClose={closable ? cancel : () => undefined}
    >
      <View testID="clickwrap-backdrop" style={[styles.backdrop, screenMargins(screen.width > screen.height)]}>
        <View
          testID="clickwrap-dialog"
          accessibilityViewIsModal
          accessibilityLanguage={language}
          style={[styles.dialog, { backgroundColor: colors.background, borderRadius: colors.radius }]}
        >
          <View style={styles.head}>
            {logoUrl && !logoFailed ? (
              <Image testID="clickwrap-logo" source={{ uri: logoUrl }} accessibilityIgnoresInvertColors resizeMode="contain"
                style={styles.logo} onError={() => setLogoFailed(true)} accessible={false} />
            ) : null}
            <View style={styles.grow}>
              <Text accessibilityRole="header" style={[styles.title, { color: colors.text }]}>{title}</Text>
              <Text testID="clickwrap-subtitle" style={[styles.subtitle, { color: colors.muted }]}>
                {subtitle(subtitleView, customizations, language)}
              </Text>
            </View>
            {closable && !readOnly ? (
              <Pressable testID="clickwrap-close" accessibilityRole="button" accessibilityLabel={words.close} onPress={cancel}
                hitSlop={8} style={styles.close}>
                <Text style={[styles.closeText, { color: colors.text }]}>×</Text>
              </Pressable>
            ) : null}
          </View>

          <ScrollView
            testID="clickwrap-content"
            style={[styles.content, { borderColor: colors.neutral }]}
            contentContainerStyle={styles.contentInner}
            onLayout={(event: LayoutChangeEvent) => setBoxHeight(event.nativeEvent.layout.height)}
            onContentSizeChange={(_width: number, height: number) => setContentHeight(height)}
            onScroll={onScroll}
            scrollEventThrottle={100}
          >
            <AgreementContent html={view.content} colors={{ text: colors.text, accent: colors.accent, rule: colors.neutral }} />
          </ScrollView>

          {scrollMode && !scrolledToEnd ? (
            <Text testID="clickwrap-hint" style={[styles.note, { color: colors.muted }]}>{words.scrollHint}</Text>
          ) : null}
          {!readOnly && agreementMode === 'CHECKBOX' ? (
            <Pressable
              testID="clickwrap-checkbox"
              accessibilityRole="checkbox"
              accessibilityLabel={checkboxLabel}
              accessibilityState={{ checked, disabled: busy }}
              disabled={busy}
              onPress={() => setChecked((value) => !value)}
              style={styles.check}
            >
              <View style={[styles.box, { borderColor: colors.edge, backgroundColor: checked ? colors.primary : 'transparent' }]}>
                {checked ? <Text style={[styles.tick, { color: colors.onPrimary }]}>✓</Text> : null}
              </View>
              <Text style={[styles.checkLabel, { color: colors.text }]}>{checkboxLabel}</Text>
            </Pressable>
          ) : null}
          {saveError ? (
            <Text testID="clickwrap-error" accessibilityRole="alert" accessibilityLiveRegion="assertive" style={[styles.note, styles.error, { color: colors.error }]}>
              {saveError}
            </Text>
          ) : null}

          <View style={styles.footer}>
            {readOnly
              ? button(words.close, buttonColors('FILLED', false, colors), false, cancel, 'clickwrap-done')
              : (
                <>
                  {buttons.showDecline !== false
                    ? button(textOf(customizations, 'declineButton'), buttonColors(buttons.declineStyle, true, colors), busy, () => act('DECLINED'), 'clickwrap-decline', pending === 'DECLINED')
                    : null}
                  {button(acceptLabel, buttonColors(buttons.acceptStyle, false, colors), busy || !ready, () => act('ACCEPTED'), 'clickwrap-accept', pending === 'ACCEPTED')}
                </>
              )}
          </View>
        </View>
      </View>
    </Modal>
  );
}

const styles = StyleSheet.create({
  backdrop: { flex: 1, justifyContent: 'center', alignItems: 'center', paddingHorizontal: SCREEN_MARGIN, backgroundColor: 'rgba(15,23,42,0.55)' },
  dialog: { width: '100%', maxWidth: 640, maxHeight: '100%', overflow: 'hidden', paddingBottom: 16 },
  head: { flexDirection: 'row', alignItems: 'flex-start', padding: 20, paddingBottom: 12, gap: 12 },
  logo: { width: 80, height: 40 },
  grow: { flex: 1 },
  title: { fontSize: 19, fontWeight: '600', lineHeight: 25 },
  subtitle: { fontSize: 13, marginTop: 4 },
  // A 44-point touch target; the negative margins keep the × where a 36-point box put it, and leave
  // the title as much room as that box did.
  close: { width: 44, height: 44, alignItems: 'center', justifyContent: 'center', marginTop: -10, marginRight: -10, marginLeft: -4 },
  closeText: { fontSize: 26, lineHeight: 28 },
  content: { flexGrow: 0, flexShrink: 1, borderTopWidth: StyleSheet.hairlineWidth, borderBottomWidth: StyleSheet.hairlineWidth },
  contentInner: { paddingHorizontal: 20, paddingVertical: 4 },
  note: { marginHorizontal: 20, marginTop: 10, fontSize: 13 },
  error: { fontWeight: '600' },
  // At least 44 points high (a touch target) with a one-line label; the label's line is as high as
  // the box, so the box stands beside its first line.
  check: { flexDirection: 'row', alignItems: 'flex-start', minHeight: 44, paddingVertical: 11, marginHorizontal: 20, marginTop: 2, gap: 10 },
  box: { width: 22, height: 22, borderWidth: 2, borderRadius: 4, alignItems: 'center', justifyContent: 'center' },
  tick: { fontSize: 14, fontWeight: '700' },
  checkLabel: { flex: 1, fontSize: 15, lineHeight: 22 },
  footer: { flexDirection: 'row', flexWrap: 'wrap', justifyContent: 'flex-end', alignItems: 'center', gap: 8, paddingHorizontal: 20, paddingTop: 16 },
  // flexGrow: buttons share their row, so buttons wrapped on a narrow screen stack at full width
  // instead of standing ragged at the right.
  button: { flexGrow: 1, minWidth: 110, minHeight: 44, paddingHorizontal: 18, paddingVertical: 9, borderWidth: 2, alignItems: 'center', justifyContent: 'center' },
  buttonText: { fontSize: 15, fontWeight: '600' },
  disabled: { opacity: 0.45 },
  hidden: { opacity: 0 },
});
