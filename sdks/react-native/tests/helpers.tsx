/** Drives the dialog the way a user would, in Node, through the React Native testing library. */
import { act, fireEvent, screen } from '@testing-library/react-native';
import { Modal } from 'react-native';

/** Gives the agreement's scroll box its sizes, as the device's layout would. */
export function layOut(boxHeight: number, contentHeight: number) {
  const content = screen.getByTestId('clickwrap-content');
  fireEvent(content, 'layout', { nativeEvent: { layout: { x: 0, y: 0, width: 320, height: boxHeight } } });
  fireEvent(content, 'contentSizeChange', 320, contentHeight);
}

/** Scrolls the agreement so that its top edge is at `offset`. */
export function scrollTo(offset: number, boxHeight: number, contentHeight: number) {
  fireEvent.scroll(screen.getByTestId('clickwrap-content'), {
    nativeEvent: {
      contentOffset: { x: 0, y: offset },
      contentSize: { width: 320, height: contentHeight },
      layoutMeasurement: { width: 320, height: boxHeight },
    },
  });
}

/** Android's back button while the dialog is open (Modal's onRequestClose). */
export function pressBack() {
  const modal = screen.UNSAFE_getByType(Modal);
  act(() => {
    modal.props.onRequestClose();
  });
}

/** Whether a Pressable is disabled, as assistive technology sees it. */
export function isDisabled(testID: string): boolean {
  return screen.getByTestId(testID).props.accessibilityState?.disabled === true;
}

/** Settles a promise without unhandled-rejection noise: {value} or {error}. */
export function settle<T>(promise: Promise<T>): Promise<{ value?: T; error?: any }> {
  return promise.then((value) => ({ value }), (error) => ({ error }));
}

/**
 * Awaits what the SDK resolves with inside act(), so that the dialog's own updates on the way
 * (it closes as the promise settles) are applied before the test looks again.
 */
export async function inAct<T>(promise: Promise<T>): Promise<T> {
  let out: { value?: T; error?: unknown; failed: boolean } = { failed: false };
  await act(async () => {
    out = await promise.then((value) => ({ value, failed: false }), (error) => ({ error, failed: true }));
  });
  if (out.failed) throw out.error;
  return out.value as T;
}
