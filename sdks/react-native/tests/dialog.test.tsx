/**
 * What the dialog looks like and offers: the template's customizations, readable colours, the
 * agreement rendered natively (and safely), accessibility, and showAcceptedContent().
 */
import { fireEvent, render, screen, within } from '@testing-library/react-native';
import { Linking, StyleSheet } from 'react-native';

import { ClickwrapClient, ClickwrapProvider } from '../src';
import { SDK_VERSION } from '../src/device';
import { parseHtml, textContent } from '../src/html';
import { contrast, palette } from '../src/theme';
import { APP_ID, BASE_URL, TEMPLATE_ID, defaultCustomizations, fakeService } from './fake-service';
import { inAct, pressBack, settle } from './helpers';
import packageJson from '../package.json';

const USER = 'user-7';

beforeEach(() => {
  ClickwrapClient.initialize(APP_ID, { baseUrl: BASE_URL });
});

async function open(template: Parameters<typeof fakeService>[0]) {
  const service = fakeService(template);
  render(<ClickwrapProvider />);
  const shown = settle(ClickwrapClient.show({ clickwrapTemplateId: TEMPLATE_ID, endUserId: USER }));
  await screen.findByTestId('clickwrap-dialog');
  return { service, shown };
}

async function close(shown: Promise<unknown>) {
  fireEvent.press(screen.getByTestId('clickwrap-close'));
  await inAct(shown);
}

function style(testID: string) {
  return StyleSheet.flatten(screen.getByTestId(testID).props.style);
}

function hexToRgb(hex: string): [number, number, number] {
  const n = parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

describe('customizations', () => {
  test('colours, radius, button styles, logo and texts of the template are applied', async () => {
    const { shown } = await open({
      agreementMode: 'CHECKBOX',
      customizations: {
        theme: { primaryColor: '#0a7d38', backgroundColor: '#fffdf5', textColor: '#1b1b1b', borderRadius: 4 },
        buttons: { acceptStyle: 'FILLED', declineStyle: 'OUTLINED', showDecline: true },
        logoUrl: 'https://cdn.example.test/logo.png',
        texts: { title: 'Our terms', acceptButton: 'I agree', declineButton: 'No thanks', checkboxLabel: 'I have read the terms', versionLabel: 'Revision' },
      },
    });
    expect(style('clickwrap-dialog')).toMatchObject({ backgroundColor: '#fffdf5', borderRadius: 4 });
    expect(screen.getByText('Our terms')).toHaveStyle({ color: '#1b1b1b' });
    expect(screen.getByTestId('clickwrap-subtitle')).toHaveTextContent(/^Terms of Service · Revision 1\.2 · /);
    expect(style('clickwrap-accept')).toMatchObject({ backgroundColor: '#0a7d38', borderColor: '#0a7d38', borderRadius: 2 });
    expect(within(screen.getByTestId('clickwrap-accept')).getByText('I agree')).toHaveStyle({ color: '#ffffff' });
    // OUTLINED Decline: no fill, the primary colour for its edge and text.
    expect(style('clickwrap-decline')).toMatchObject({ backgroundColor: 'transparent', borderColor: '#0a7d38' });
    expect(within(screen.getByTestId('clickwrap-decline')).getByText('No thanks')).toHaveStyle({ color: '#0a7d38' });
    expect(screen.getByRole('checkbox', { name: 'I have read the terms' })).toBeTruthy();
    expect(screen.getByTestId('clickwrap-logo').props.source).toEqual({ uri: 'https://cdn.example.test/logo.png' });
    await close(shown);
  });

  test('a FILLED Decline is never filled like Accept; TEXT buttons have no edge; Decline can be hidden', async () => {
    let { shown } = await open({ customizations: { buttons: { acceptStyle: 'TEXT', declineStyle: 'FILLED' } } });
    expect(style('clickwrap-decline')).toMatchObject({ backgroundColor: 'transparent' });
    expect(style('clickwrap-decline').borderColor).not.toBe('transparent');
    expect(style('clickwrap-accept')).toMatchObject({ backgroundColor: 'transparent', borderColor: 'transparent' });
    await close(shown);

    ({ shown } = await open({ customizations: { buttons: { showDecline: false } } }));
    expect(screen.queryByTestId('clickwrap-decline')).toBeNull();
    expect(screen.getByTestId('clickwrap-accept')).toBeTruthy();
    await close(shown);
  });

  test('a logo that is not https is not loaded, and one that fails to load goes away', async () => {
    let { shown } = await open({ customizations: { logoUrl: 'http://cdn.example.test/logo.png' } });
    expect(screen.queryByTestId('clickwrap-logo')).toBeNull();
    await close(shown);

    ({ shown } = await open({ customizations: { logoUrl: 'https://cdn.example.test/missing.png' } }));
    fireEvent(screen.getByTestId('clickwrap-logo'), 'error', { nativeEvent: { error: 'not found' } });
    expect(screen.queryByTestId('clickwrap-logo')).toBeNull();
    await close(shown);
  });

  test('without customizations the built-in texts and colours are used', async () => {
    const { shown } = await open({ customizations: {} });
    expect(screen.getByText('Please review and accept')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Accept' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Decline' })).toBeTruthy();
    expect(style('clickwrap-dialog')).toMatchObject({ backgroundColor: '#ffffff', borderRadius: 12 });
    await close(shown);
  });
});

describe('readable colours', () => {
  test.each([
    ['a pale primary colour on white', { primaryColor: '#ffee88', backgroundColor: '#ffffff', textColor: '#222222' }],
    ['text as pale as the background', { primaryColor: '#2563eb', backgroundColor: '#ffffff', textColor: '#fafafa' }],
    ['a dark theme', { primaryColor: '#1e3a8a', backgroundColor: '#111827', textColor: '#e5e7eb' }],
  ])('%s: texts reach 4.5:1 and edges 3:1 against the background', (_name, theme) => {
    const colors = palette({ theme });
    const bg = hexToRgb(colors.background);
    for (const text of [colors.text, colors.muted, colors.accent, colors.error]) expect(contrast(hexToRgb(text), bg)).toBeGreaterThanOrEqual(4.5);
    for (const edge of [colors.edge, colors.neutral]) expect(contrast(hexToRgb(edge), bg)).toBeGreaterThanOrEqual(3);
    expect(contrast(hexToRgb(colors.onPrimary), hexToRgb(colors.primary))).toBeGreaterThanOrEqual(4.5);
  });

  test('a colour that already reads is kept as the template gave it', () => {
    expect(palette({ theme: { primaryColor: '#0a7d38', backgroundColor: '#fffdf5', textColor: '#1b1b1b' } })).toMatchObject({
      primary: '#0a7d38', accent: '#0a7d38', background: '#fffdf5', text: '#1b1b1b',
    });
  });

  test('a radius outside 0 to 48 falls back to the default', () => {
    expect(palette({ theme: { borderRadius: 0 } }).radius).toBe(0);
    expect(palette({ theme: { borderRadius: 400 } }).radius).toBe(12);
  });
});

describe('the agreement', () => {
  const hostile =
    '<p>Before</p><img src="x" onerror="alert(1)"><script>window.__xss = "script"</script>' +
    '<style>p { color: red }</style><a href="javascript:alert(1)">a script link</a>' +
    '<svg><text>drawn</text></svg><iframe src="https://evil.test"></iframe>' +
    '<p onclick="alert(1)">After &amp; more &lt;b&gt; &#8212; &#x263A;</p><a href="https://example.test/terms">the terms</a>' +
    '<marquee>kept text</marquee>';

  test('only text and allow-listed structure reach the screen', () => {
    expect(textContent(parseHtml(hostile))).toBe('Before a script link After & more <b> — ☺ the terms kept text');
  });

  test('renders headings, lists and links natively; script, images and unsafe links do not', async () => {
    const openURL = jest.spyOn(Linking, 'openURL').mockResolvedValue(true);
    const { shown } = await open({
      content: '<h2>1. Scope</h2><ol start="3"><li>first</li><li>second</li></ol><ul><li>dot</li></ul>' + hostile,
    });
    expect(screen.getByRole('header', { name: '1. Scope' })).toBeTruthy();
    expect(screen.getByText('3.')).toBeTruthy();
    expect(screen.getByText('4.')).toBeTruthy();
    expect(screen.getByText('•')).toBeTruthy();
    expect(screen.queryByText(/__xss|color: red|drawn/)).toBeNull();
    expect(screen.getByText('After & more <b> — ☺')).toBeTruthy();
    // The javascript: link is plain text; the https one is a link that opens the browser.
    expect(screen.getAllByRole('link')).toHaveLength(1);
    expect(screen.getByText('a script link').props.onPress).toBeUndefined();
    fireEvent.press(screen.getByRole('link', { name: 'the terms' }));
    expect(openURL).toHaveBeenCalledWith('https://example.test/terms');
    await close(shown);
  });
});

describe('accessibility', () => {
  test('roles, labels and states say what each part is', async () => {
    const { shown } = await open({ agreementMode: 'CHECKBOX' });
    expect(screen.getByTestId('clickwrap-dialog').props.accessibilityViewIsModal).toBe(true);
    expect(screen.getByRole('header', { name: 'Please review and accept' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Close' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Accept' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Decline' })).toBeEnabled();
    expect(screen.getByRole('checkbox', { name: 'I have read and agree to the terms' })).not.toBeChecked();
    fireEvent.press(screen.getByRole('checkbox'));
    expect(screen.getByRole('checkbox')).toBeChecked();
    expect(screen.getByRole('button', { name: 'Accept' })).toBeEnabled();
    // Everything to press is a 44-point touch target at least.
    for (const target of [...screen.getAllByRole('button'), screen.getByRole('checkbox')]) {
      const style = StyleSheet.flatten(target.props.style);
      expect(Math.max(style.minHeight ?? 0, style.height ?? 0)).toBeGreaterThanOrEqual(44);
    }
    await close(shown);
  });

  test('while an action is recorded, its button shows a spinner and nothing can be pressed', async () => {
    const { service, shown } = await open({ agreementMode: 'CHECKBOX' });
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const answer = service.fetch.getMockImplementation()!;
    service.fetch.mockImplementation(async (url, init) => {
      if (init?.method === 'POST') await held;
      return answer(url, init);
    });
    fireEvent.press(screen.getByRole('checkbox'));
    fireEvent.press(screen.getByRole('button', { name: 'Accept' }));
    expect(within(screen.getByRole('button', { name: 'Accept' })).getByTestId('clickwrap-spinner')).toBeTruthy();
    expect(within(screen.getByRole('button', { name: 'Decline' })).queryByTestId('clickwrap-spinner')).toBeNull();
    expect(screen.getByRole('button', { name: 'Decline' })).toBeDisabled();
    expect(screen.getByRole('checkbox')).toBeDisabled();
    release();
    expect((await inAct(shown)).value).toMatchObject({ action: 'ACCEPTED' });
  });

  test("on an upright iPhone a tall dialog keeps clear of the Dynamic Island and the home indicator", async () => {
    const { shown } = await open({});
    // The test renderer is iOS on a portrait screen.
    const margins = style('clickwrap-backdrop');
    expect(margins.paddingTop).toBeGreaterThanOrEqual(59);
    expect(margins.paddingBottom).toBeGreaterThanOrEqual(34);
    await close(shown);
  });

  test('in scroll mode, Accept tells why it is disabled', async () => {
    const { shown } = await open({});
    expect(screen.getByRole('button', { name: 'Accept' }).props.accessibilityHint).toBe('Scroll to the end to continue.');
    await close(shown);
  });
});

describe('showAcceptedContent', () => {
  test('shows what the user accepted, read-only, and resolves with it when closed', async () => {
    const service = fakeService({ content: '<p>The accepted terms.</p>' });
    service.state.accepted.add(USER);
    render(<ClickwrapProvider />);
    const shown = ClickwrapClient.showAcceptedContent({ clickwrapTemplateId: TEMPLATE_ID, endUserId: USER, language: 'en' });
    await screen.findByTestId('clickwrap-dialog');
    expect(screen.getByRole('header', { name: 'Terms of Service' })).toBeTruthy();
    // The name is the title here, so the subtitle does not repeat it.
    expect(screen.getByTestId('clickwrap-subtitle')).toHaveTextContent(/^Version 1\.2 · January 15, 2026$/);
    expect(screen.getByText('The accepted terms.')).toBeTruthy();
    expect(screen.queryByTestId('clickwrap-accept')).toBeNull();
    expect(screen.queryByTestId('clickwrap-decline')).toBeNull();
    expect(screen.queryByRole('checkbox')).toBeNull();
    fireEvent.press(screen.getByRole('button', { name: 'Close' }));
    const content = await inAct(shown);
    expect(content).toMatchObject({ clickwrapTemplateId: TEMPLATE_ID, clickwrapTemplateVersion: 1, clickwrapTemplateVersionMinor: 2, content: '<p>The accepted terms.</p>' });
    const [request] = service.requestsTo('GET', '/clickwrap/content');
    expect(request.query).toMatchObject({ appId: APP_ID, clickwrapTemplateId: TEMPLATE_ID, endUserId: USER });
    expect(request.query.language).toMatch(/^en/);
    expect(service.requestsTo('POST', '/clickwrap')).toHaveLength(0);
  });

  test('the dialog still opens when the customizations cannot be loaded', async () => {
    const service = fakeService({ customizations: defaultCustomizations() });
    service.state.accepted.add(USER);
    service.fail({ method: 'GET', path: '/clickwrap/customizations', status: 500, times: 2 });
    render(<ClickwrapProvider />);
    const shown = ClickwrapClient.showAcceptedContent({ clickwrapTemplateId: TEMPLATE_ID, endUserId: USER });
    await screen.findByTestId('clickwrap-dialog');
    // Android's back button closes it too.
    pressBack();
    expect((await inAct(shown)).name).toBe('Terms of Service');
  });

  test('ERR_SERVICE_TEMPLATE_NOT_FOUND when the user never accepted', async () => {
    fakeService();
    render(<ClickwrapProvider />);
    await expect(ClickwrapClient.showAcceptedContent({ clickwrapTemplateId: TEMPLATE_ID, endUserId: 'never' }))
      .rejects.toMatchObject({ code: 'ERR_SERVICE_TEMPLATE_NOT_FOUND' });
    expect(screen.queryByTestId('clickwrap-dialog')).toBeNull();
  });
});

test("the version the SDK reports is the package's", () => {
  expect(SDK_VERSION).toBe(packageJson.version);
  expect(ClickwrapClient.version).toBe(packageJson.version);
});
