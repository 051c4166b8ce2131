/**
 * The agreement, rendered natively from the service's sanitized HTML: a small parser builds a
 * tree, and only the service's allow-listed tags become React Native views and texts. Nothing is
 * ever evaluated and nothing loads (no images, no styles, no frames): there is no HTML engine.
 * Links open in the system browser, and only http:, https: and mailto: ones.
 */
import React from 'react';
import { Linking, StyleSheet, Text, View, type TextStyle } from 'react-native';

export type HtmlNode =
  | { kind: 'text'; text: string }
  | { kind: 'element'; tag: string; attributes: Record<string, string>; children: HtmlNode[] };

// The service's own allow-list (the server sanitizes content on save), as in the web SDK.
const ALLOWED_TAGS = new Set(('h1 h2 h3 h4 h5 h6 p br hr ul ol li dl dt dd strong b em i u s sup sub blockquote a span ' +
  'div code pre table caption colgroup col thead tbody tfoot tr th td').split(' '));
// Dropped with everything in them; any other tag outside the allow-list keeps only its content.
const REMOVED_TAGS = new Set(('script style template iframe frame frameset object embed applet noscript noembed ' +
  'noframes textarea select title svg math img picture video audio source track input button form link ' +
  'meta base portal head').split(' '));
// Elements whose content is text up to their end tag, never markup.
const RAW_TEXT_TAGS = new Set('script style textarea title xmp iframe noembed noframes noscript plaintext'.split(' '));
const VOID_TAGS = new Set('area base br col embed hr img input link meta param source track wbr'.split(' '));
const INLINE_TAGS = new Set('a b strong em i u s sup sub span code br'.split(' '));
const SAFE_LINK = /^(https?:|mailto:)/i;

const ENTITIES: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', copy: '©', reg: '®', trade: '™',
  hellip: '…', mdash: '—', ndash: '–', lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”', laquo: '«',
  raquo: '»', euro: '€', bull: '•', middot: '·', sect: '§', para: '¶', deg: '°', shy: '\u00ad',
};

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z][a-z0-9]*);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd';
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

const OPEN_TAG = /<([a-zA-Z][a-zA-Z0-9:-]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*\/?>/y;
const CLOSE_TAG = /<\/([a-zA-Z][a-zA-Z0-9:-]*)[^>]*>/y;
const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

/** Parses HTML into a tree; forgiving like a browser about what it cannot read (kept as text). */
export function parseHtml(html: string): HtmlNode[] {
  const root: HtmlNode & { kind: 'element' } = { kind: 'element', tag: '#root', attributes: {}, children: [] };
  const stack = [root];
  const current = () => stack[stack.length - 1];
  const addText = (text: string) => {
    if (text) current().children.push({ kind: 'text', text: decodeEntities(text) });
  };
  let i = 0;
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    if (lt < 0) {
      addText(html.slice(i));
      break;
    }
    addText(html.slice(i, lt));
    i = lt;
    if (html.startsWith('<!--', i)) {
      const end = html.indexOf('-->', i + 4);
      i = end < 0 ? html.length : end + 3;
      continue;
    }
    CLOSE_TAG.lastIndex = i;
    const close = CLOSE_TAG.exec(html);
    if (close) {
      const tag = close[1].toLowerCase();
      const at = stack.map((node) => node.tag).lastIndexOf(tag);
      if (at > 0) stack.length = at;
      i = CLOSE_TAG.lastIndex;
      continue;
    }
    OPEN_TAG.lastIndex = i;
    const open = OPEN_TAG.exec(html);
    if (open) {
      const tag = open[1].toLowerCase();
      const attributes: Record<string, string> = {};
      for (const m of open[2].matchAll(ATTRIBUTE)) {
        attributes[m[1].toLowerCase()] = decodeEntities(m[2] ?? m[3] ?? m[4] ?? '');
      }
      i = OPEN_TAG.lastIndex;
      const element: HtmlNode & { kind: 'element' } = { kind: 'element', tag, attributes, children: [] };
      current().children.push(element);
      if (RAW_TEXT_TAGS.has(tag)) {
        // Its content is never markup: skip to its end tag (the element is dropped when rendered).
        const end = html.toLowerCase().indexOf(`</${tag}`, i);
        i = end < 0 ? html.length : end;
      } else if (!VOID_TAGS.has(tag) && !open[0].endsWith('/>')) {
        stack.push(element);
      }
      continue;
    }
    if (html.startsWith('<!', i) || html.startsWith('<?', i)) {
      const end = html.indexOf('>', i);
      i = end < 0 ? html.length : end + 1;
      continue;
    }
    addText('<');
    i += 1;
  }
  return root.children;
}

/** The visible text of nodes, whitespace collapsed (what a screen shows, for tests and labels). */
export function textContent(nodes: HtmlNode[]): string {
  const walk = (node: HtmlNode): string =>
    node.kind === 'text' ? node.text : REMOVED_TAGS.has(node.tag) ? '' : node.tag === 'br' ? '\n' : node.children.map(walk).join(' ');
  return nodes.map(walk).join(' ').replace(/\s+/g, ' ').trim();
}

export interface ContentColors {
  text: string;
  accent: string;
  rule: string;
}

interface Context {
  colors: ContentColors;
  preformatted: boolean;
}

function isInline(node: HtmlNode): boolean {
  return node.kind === 'text' || INLINE_TAGS.has(node.tag) || (!ALLOWED_TAGS.has(node.tag) && !REMOVED_TAGS.has(node.tag) && node.children.every(isInline));
}

function openLink(href: string) {
  Linking.openURL(href).catch(() => undefined);
}

const INLINE_STYLES: Record<string, TextStyle> = {
  strong: { fontWeight: '700' },
  b: { fontWeight: '700' },
  em: { fontStyle: 'italic' },
  i: { fontStyle: 'italic' },
  u: { textDecorationLine: 'underline' },
  s: { textDecorationLine: 'line-through' },
  code: { fontFamily: 'monospace' },
};

function renderInline(node: HtmlNode, ctx: Context, key: React.Key): React.ReactNode {
  if (node.kind === 'text') return ctx.preformatted ? node.text : node.text.replace(/\s+/g, ' ');
  if (REMOVED_TAGS.has(node.tag)) return null;
  if (node.tag === 'br') return '\n';
  const children = node.children.map((child, index) => renderInline(child, ctx, index));
  const href = (node.attributes.href ?? '').trim();
  if (node.tag === 'a' && SAFE_LINK.test(href)) {
    return (
      <Text key={key} accessibilityRole="link" accessibilityHint={href} onPress={() => openLink(href)}
        style={{ color: ctx.colors.accent, textDecorationLine: 'underline' }}>
        {children}
      </Text>
    );
  }
  return <Text key={key} style={INLINE_STYLES[node.tag]}>{children}</Text>;
}

/** Consecutive inline nodes as one Text, whitespace trimmed at its ends like a browser does. */
function inlineRun(nodes: HtmlNode[], ctx: Context, key: React.Key, style?: TextStyle, header = false): React.ReactNode {
  const parts = nodes.map((node, index) => renderInline(node, ctx, index));
  if (!ctx.preformatted) {
    if (typeof parts[0] === 'string') parts[0] = parts[0].trimStart();
    const last = parts.length - 1;
    if (typeof parts[last] === 'string') parts[last] = (parts[last] as string).trimEnd();
  }
  if (parts.every((part) => part === '' || part == null)) return null;
  return (
    <Text key={key} style={[{ color: ctx.colors.text }, styles.text, style]} accessibilityRole={header ? 'header' : undefined}>
      {parts}
    </Text>
  );
}

function renderBlocks(nodes: HtmlNode[], ctx: Context, style?: TextStyle, header = false): React.ReactNode[] {
  const out: React.ReactNode[] = [];
  let run: HtmlNode[] = [];
  const flush = () => {
    if (run.length) out.push(inlineRun(run, ctx, out.length, style, header));
    run = [];
  };
  for (const node of nodes) {
    if (isInline(node)) {
      run.push(node);
    } else {
      flush();
      out.push(renderBlock(node as HtmlNode & { kind: 'element' }, ctx, out.length));
    }
  }
  flush();
  return out;
}

// Each with its own line height: the body text's 22 would make a wrapped h1's lines touch.
const HEADINGS: Record<string, TextStyle> = {
  h1: { fontSize: 22, lineHeight: 28, fontWeight: '700' },
  h2: { fontSize: 19, lineHeight: 25, fontWeight: '700' },
  h3: { fontSize: 17, lineHeight: 23, fontWeight: '700' },
  h4: { fontSize: 15, fontWeight: '700' },
  h5: { fontSize: 15, fontWeight: '700' },
  h6: { fontSize: 15, fontWeight: '700' },
};

function renderBlock(node: HtmlNode & { kind: 'element' }, ctx: Context, key: React.Key): React.ReactNode {
  const { tag, children } = node;
  if (REMOVED_TAGS.has(tag)) return null;
  if (HEADINGS[tag]) {
    return <View key={key} style={styles.heading}>{renderBlocks(children, ctx, HEADINGS[tag], true)}</View>;
  }
  switch (tag) {
    case 'ul':
    case 'ol': {
      const start = Number.parseInt(node.attributes.start ?? '1', 10);
      const items = children.filter((child) => child.kind === 'element' && child.tag === 'li') as (HtmlNode & { kind: 'element' })[];
      return (
        <View key={key} style={styles.list}>
          {items.map((item, index) => (
            <View key={index} style={styles.listItem}>
              <Text style={[styles.text, styles.marker, { color: ctx.colors.text }]}>
                {tag === 'ol' ? `${(Number.isFinite(start) ? start : 1) + index}.` : '•'}
              </Text>
              <View style={styles.grow}>{renderBlocks(item.children, ctx)}</View>
            </View>
          ))}
        </View>
      );
    }
    case 'hr':
      return <View key={key} style={[styles.rule, { backgroundColor: ctx.colors.rule }]} />;
    case 'blockquote':
      return <View key={key} style={[styles.quote, { borderLeftColor: ctx.colors.rule }]}>{renderBlocks(children, ctx)}</View>;
    case 'pre':
      return <View key={key} style={styles.block}>{renderBlocks(children, { ...ctx, preformatted: true }, { fontFamily: 'monospace' })}</View>;
    case 'table':
    case 'thead':
    case 'tbody':
    case 'tfoot':
      return <View key={key} style={tag === 'table' ? styles.block : undefined}>{renderBlocks(children, ctx)}</View>;
    case 'tr':
      return <View key={key} style={styles.row}>{renderBlocks(children, ctx)}</View>;
    case 'th':
    case 'td':
      return (
        <View key={key} style={[styles.cell, { borderColor: ctx.colors.rule }]}>
          {renderBlocks(children, ctx, tag === 'th' ? { fontWeight: '700' } : undefined)}
        </View>
      );
    case 'colgroup':
    case 'col':
      return null;
    case 'p':
    case 'div':
    case 'dl':
    case 'dt':
    case 'dd':
    case 'li':
    case 'caption':
      return <View key={key} style={tag === 'dd' ? styles.indented : tag === 'div' ? undefined : styles.block}>{renderBlocks(children, ctx, tag === 'dt' ? { fontWeight: '700' } : undefined)}</View>;
    default:
      // Outside the allow-list: only its content is kept.
      return <View key={key}>{renderBlocks(children, ctx)}</View>;
  }
}

/** The agreement's HTML as native views. */
export function AgreementContent({ html, colors }: { html: string; colors: ContentColors }) {
  const nodes = React.useMemo(() => parseHtml(html), [html]);
  return <>{renderBlocks(nodes, { colors, preformatted: false })}</>;
}

const styles = StyleSheet.create({
  text: { fontSize: 15, lineHeight: 22 },
  heading: { marginTop: 14, marginBottom: 6 },
  block: { marginVertical: 6 },
  indented: { marginLeft: 16, marginBottom: 6 },
  list: { marginVertical: 6 },
  listItem: { flexDirection: 'row', marginVertical: 2 },
  marker: { width: 24 },
  grow: { flex: 1 },
  rule: { height: StyleSheet.hairlineWidth, marginVertical: 10 },
  quote: { borderLeftWidth: 3, paddingLeft: 10, marginVertical: 6 },
  row: { flexDirection: 'row' },
  cell: { flex: 1, borderWidth: StyleSheet.hairlineWidth, padding: 4 },
});
